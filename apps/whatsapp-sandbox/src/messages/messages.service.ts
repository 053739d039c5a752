import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GraphErrors } from '../cloud-api/graph-error';
import { digitsOf, newWamid } from '../cloud-api/ids';
import { parseSendRequest, type SendMessage } from '../cloud-api/send-request';
import { SandboxMediaService } from '../media/sandbox-media.service';
import { NotificationDispatcher } from '../notifications/notification-dispatcher.service';
import { NotificationOutbox } from '../notifications/notification-outbox.store';
import { StatusCallbacks } from '../notifications/status-callbacks.service';
import { toBusinessNumber } from '../numbers/numbers.mapper';
import { NumberBehaviours } from '../numbers/number-behaviours';
import { NumbersService } from '../numbers/numbers.service';
import type { PhoneNumberEntity } from '../numbers/phone-number.entity';
import { MessageEntity } from './message.entity';
import { MessageWriter } from './message-writer';
import { LIST_MAX, type ListMessagesQuery } from './messages.dto';
import { toMessageRecord, type SandboxMessageRecord } from './messages.mapper';
import { MessagesStore } from './messages.store';

/** The Cloud API's answer to an accepted send. */
export interface SendResponse {
  messaging_product: 'whatsapp';
  contacts: { input: string; wa_id: string }[];
  messages: { id: string }[];
}

/** The Cloud API send route's logic, and the record of what customers received. */
@Injectable()
export class MessagesService {
  private readonly writer: MessageWriter;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly messages: MessagesStore,
    private readonly numbers: NumbersService,
    private readonly statuses: StatusCallbacks,
    private readonly behaviours: NumberBehaviours,
    private readonly dispatcher: NotificationDispatcher,
    private readonly media: SandboxMediaService,
    outbox: NotificationOutbox,
  ) {
    this.writer = new MessageWriter(db, outbox);
  }

  /**
   * `POST /{version}/{phone_number_id}/messages`: validates like Meta, stores the accepted message together with its
   * sent, delivered and read notifications (delivered off the request path, durably), and answers with its wamid.
   * Read receipts answer `{success: true}`.
   */
  async send(phoneNumberId: string, body: unknown): Promise<SendResponse | { success: true }> {
    const number = await this.numbers.findById(phoneNumberId);
    if (!number) throw GraphErrors.unknownObject('post', phoneNumberId);
    const request = parseSendRequest(body);
    if (request.kind === 'read') return { success: true };

    const message = request.message;
    const mediaId = 'content' in message ? message.content.id : undefined;
    // A media id must be one this number uploaded (Meta: 131053 "Media upload error").
    if (typeof mediaId === 'string' && !(await this.media.exists(phoneNumberId, mediaId))) throw GraphErrors.invalidParameter(`Param ${message.type}['id'] is not a valid media id.`);
    if (!this.behaviours.takePairTurn(phoneNumberId, message.to)) throw GraphErrors.pairRateLimit();
    const id = newWamid();
    const entity = this.outboundEntity(id, number, message);
    const statuses = this.statuses.plan(toBusinessNumber(number), { id, to: message.to, bizOpaqueCallbackData: message.bizOpaqueCallbackData, acceptedAt: entity.createdAt });
    await this.writer.write(entity, statuses);
    if (statuses.length > 0) this.dispatcher.wake();
    // A slow provider: the message is taken (and reported) already; only the answer is late.
    const delayMs = this.behaviours.of(phoneNumberId).answer_delay_ms;
    if (delayMs > 0) await sleep(delayMs);
    return { messaging_product: 'whatsapp', contacts: [{ input: message.input, wa_id: digitsOf(message.to) }], messages: [{ id }] };
  }

  /** Accepted messages, oldest first; numbers are matched on their digits. */
  async list(query: ListMessagesQuery): Promise<SandboxMessageRecord[]> {
    const rows = await this.messages.listOutbound({
      to: query.to ? `+${digitsOf(query.to)}` : null,
      from: query.from ? `+${digitsOf(query.from)}` : null,
      since: query.since ? new Date(query.since) : null,
      limit: query.limit ?? LIST_MAX,
    });
    return rows.map(toMessageRecord);
  }

  private outboundEntity(id: string, number: PhoneNumberEntity, message: SendMessage): MessageEntity {
    return this.db.getRepository(MessageEntity).create({
      id,
      direction: 'outbound',
      phoneNumberId: number.phoneNumberId,
      businessNumber: number.phoneNumber,
      customerNumber: message.to,
      type: message.type,
      body: message.type === 'text' ? message.body : null,
      template: message.type === 'template' ? message.template : null,
      content: 'content' in message ? message.content : null,
      contextMessageId: message.contextMessageId,
      bizOpaqueCallbackData: message.bizOpaqueCallbackData,
      createdAt: new Date(),
    });
  }
}
