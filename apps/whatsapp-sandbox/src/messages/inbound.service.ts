import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { notFoundProblem, type FieldError } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { DataSource } from 'typeorm';
import { digitsOf, newWamid } from '../cloud-api/ids';
import { inboundNotification, inboundTextNotification } from '../cloud-api/notifications';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { LEASE_MS, NotificationDispatcher } from '../notifications/notification-dispatcher.service';
import { NotificationOutbox, type OutboxEntry } from '../notifications/notification-outbox.store';
import { toBusinessNumber } from '../numbers/numbers.mapper';
import { NumbersService } from '../numbers/numbers.service';
import { SandboxMediaService } from '../media/sandbox-media.service';
import type { PhoneNumberEntity } from '../numbers/phone-number.entity';
import { MessageEntity } from './message.entity';
import type { InboundMessageDto } from './messages.dto';

/** `POST /_sandbox/inbound`'s answer: `queued` when the gateway has not taken the message yet (it is being retried). */
export type InboundAnswer = { id: string } | { id: string; queued: true };

/**
 * Plays a customer writing to a business number: Meta's signed inbound notification, delivered to the gateway. Like
 * Meta, the sandbox never loses it: the notification is stored with the message (the outbox, leased to this request)
 * and posted at once; one the gateway did not take (down, restarting, answering anything but 200) stays owed and is
 * retried with back-off for SANDBOX_INBOUND_GIVE_UP_MS. A customer's messages reach the gateway in the order written.
 */
@Injectable()
export class InboundService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: WhatsappSandboxConfig,
    private readonly numbers: NumbersService,
    private readonly outbox: NotificationOutbox,
    private readonly dispatcher: NotificationDispatcher,
    private readonly media: SandboxMediaService,
  ) {}

  /** `{id}` once the gateway has taken the notification (HTTP 200); `{id, queued: true}` when it is left to the retries. */
  async receive(dto: InboundMessageDto): Promise<InboundAnswer> {
    const number = await this.numbers.findByNumber(dto.to);
    if (!number) {
      const errors: FieldError[] = [{ field: 'to', message: 'to must be a number of the sandbox (see GET /_sandbox/numbers)' }];
      throw new ProblemException({ ...notFoundProblem(`The sandbox number ${dto.to}`), errors });
    }
    const id = newWamid();
    const at = new Date();
    const type = dto.type ?? 'text';
    const content = type === 'text' ? null : await this.contentOf(number, dto);
    const business = toBusinessNumber(number);
    const notification: OutboxEntry = {
      // One customer's messages to one number, one at a time and in order.
      messageKey: `inbound:${number.phoneNumberId}:${digitsOf(dto.from)}`,
      body: JSON.stringify(
        content ? inboundNotification(business, { id, from: dto.from, type, content, at }) : inboundTextNotification(business, { id, from: dto.from, body: dto.text!, at }),
      ),
      dueAt: at,
      giveUpAt: new Date(at.getTime() + this.config.SANDBOX_INBOUND_GIVE_UP_MS),
    };
    const claimed = await this.db.transaction(async (tx) => {
      await tx.getRepository(MessageEntity).insert({
        id,
        direction: 'inbound',
        phoneNumberId: number.phoneNumberId,
        businessNumber: number.phoneNumber,
        customerNumber: dto.from,
        type,
        body: dto.text ?? dto.caption ?? null,
        template: null,
        content: content as MessageEntity['content'] & object,
        contextMessageId: null,
        bizOpaqueCallbackData: null,
        createdAt: at,
      });
      return this.outbox.recordClaimed(tx, notification, LEASE_MS);
    });
    if (!claimed) {
      // An earlier message of this customer is still owed: this one goes out after it.
      this.dispatcher.wake();
      return { id, queued: true };
    }
    return (await this.dispatcher.deliverClaimed(claimed)) ? { id } : { id, queued: true };
  }

  /**
   * The Cloud API content of a customer's media message or reply. A file is stored first (its bytes are served at its
   * download URL, with `fail_downloads` failures injected), as Meta holds a customer's media before notifying.
   */
  private async contentOf(number: PhoneNumberEntity, dto: InboundMessageDto): Promise<Record<string, unknown>> {
    if (dto.type === 'interactive') {
      const reply = dto.reply!;
      return reply.kind === 'list' ? { type: 'list_reply', list_reply: { id: reply.id, title: reply.title } } : { type: 'button_reply', button_reply: { id: reply.id, title: reply.title } };
    }
    const file = dto.media!;
    const media = await this.media.store({
      phoneNumberId: number.phoneNumberId,
      direction: 'inbound',
      mimeType: file.mime_type,
      data: Buffer.from(file.base64, 'base64'),
      filename: file.filename ?? null,
      failuresLeft: file.fail_downloads ?? 0,
    });
    return {
      id: media.id,
      mime_type: media.mimeType,
      sha256: media.sha256,
      ...(dto.caption && dto.type !== 'audio' && dto.type !== 'sticker' ? { caption: dto.caption } : {}),
      ...(dto.type === 'document' && media.filename ? { filename: media.filename } : {}),
      ...(dto.type === 'audio' ? { voice: file.mime_type === 'audio/ogg' } : {}),
    };
  }
}
