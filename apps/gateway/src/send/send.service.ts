import { Injectable, Logger } from '@nestjs/common';
import {
  ProblemTypes,
  Topics,
  conversationKey,
  derivedId,
  newId,
  problem,
  validationProblem,
  type MessageOutboundData,
  type RichSendBody,
  type SendMessageBody,
  type SendResult,
} from '@parley/contracts';
import { EventPublisher, RpcClient } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';
import { SendFundsService } from '../billing/send-funds.service';
import { ChannelSendersService } from '../channels/channel-senders.service';
import { fingerprint } from '../idempotency/idempotency-key';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { richContent } from './rich-send';

/** The broker must take a send within this time, or the answer is 503 (CONTRACT.md §4). */
const ACCEPT_TIMEOUT_MS = 2000;

/** A team member signed in to the dashboard sent it (the inbox keeps it as their reply, CONTRACT.md §12). */
export type SendAuthor = { type: 'member'; id: string };

/** A keyed send's answer; `replayed` when it is the stored answer of an earlier request with the key. */
export interface KeyedSendResult {
  result: SendResult;
  replayed: boolean;
}

/**
 * `POST /v1/send`: a message is `sent` once it is durably on `message.outbound` (acknowledged by all in-sync
 * replicas); messaging-service takes it from there. Nothing is answered `sent` that the broker has not taken.
 */
@Injectable()
export class SendService {
  private readonly logger = new Logger(SendService.name);

  constructor(
    private readonly publisher: EventPublisher,
    private readonly senders: ChannelSendersService,
    private readonly idempotency: IdempotencyService,
    private readonly rpc: RpcClient,
    private readonly funds: SendFundsService,
  ) {}

  async send(tenantId: string, body: SendMessageBody | RichSendBody, requestId: string, author?: SendAuthor): Promise<SendResult> {
    return this.publish(tenantId, body, requestId, newId('msg'), newId('evt'), author);
  }

  /**
   * A send with an `Idempotency-Key` (CONTRACT.md §4): the first answer is given again for the same key and body. The
   * message and event ids derive from the tenant and the key, so even a retry after a lost answer or a 503 that did
   * reach the broker carries the same ids, which messaging-service deduplicates: it can never send twice.
   */
  async sendOnce(tenantId: string, key: string, body: SendMessageBody | RichSendBody, requestId: string, author?: SendAuthor): Promise<KeyedSendResult> {
    const { answer, replayed } = await this.idempotency.once(tenantId, key, fingerprint(body), async () => ({
      status: 200,
      body: await this.publish(tenantId, body, requestId, derivedId('msg', tenantId, key), derivedId('evt', 'send', tenantId, key), author),
    }));
    return { result: answer.body, replayed };
  }

  private async publish(tenantId: string, body: SendMessageBody | RichSendBody, requestId: string, messageId: string, eventId: string, author?: SendAuthor): Promise<SendResult> {
    if (body.from !== undefined) await this.checkSender(tenantId, body.from, requestId);
    // A template is checked where templates live: approved, placeholders filled, not marketing to an opted-out customer.
    const rich = 'type' in body ? await richContent(tenantId, body, this.rpc, requestId) : null;
    const plain = 'type' in body ? null : body;
    if (plain?.template) await this.rpc.request('templates.check-send', { tenant_id: tenantId, to: plain.to, from: plain.from ?? null, template: plain.template }, { requestId });
    const data: MessageOutboundData = {
      message_id: messageId,
      channel: body.channel,
      from: body.from ?? null,
      to: body.to,
      content:
        rich ??
        (plain!.template
          ? { type: 'template', template: { name: plain!.template.name, language: { ...plain!.template.language }, ...(plain!.template.components ? { components: plain!.template.components } : {}) } }
          : { type: 'text', text: plain!.message! }),
      ...(plain?.channel === 'email' ? { subject: plain.subject, html: plain.html ?? null } : {}),
      origin: 'api',
      ...(author ? { author } : {}),
      accepted_at: new Date().toISOString(),
    };
    // Last, once everything else has passed: a paid send reserves its price (402 when the wallet cannot cover it).
    const reservation = await this.funds.reserve(tenantId, messageId, body);
    try {
      await this.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data, eventId), conversationKey(tenantId, body.to), requestId, {
        timeoutMs: ACCEPT_TIMEOUT_MS,
      });
    } catch (err) {
      this.logger.warn(`send ${messageId} (request ${requestId}) not accepted by the broker: ${String(err)}`);
      await reservation?.release();
      throw new ProblemException(
        problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The message could not be queued right now and was not sent; retry shortly.'),
        { 'retry-after': '5' },
      );
    }
    return { status: 'sent', message_id: messageId };
  }

  /** `from` must be one of the tenant's connected numbers (cached; see ChannelSendersService). */
  private async checkSender(tenantId: string, from: string, requestId: string): Promise<void> {
    if (!(await this.senders.isSender(tenantId, from, requestId))) {
      throw new ProblemException(validationProblem([{ field: 'from', message: 'from is not one of your connected numbers' }]));
    }
  }
}
