import { Injectable, Logger } from '@nestjs/common';
import {
  ProblemTypes,
  Topics,
  conversationKey,
  newId,
  problem,
  validationProblem,
  type MessageOutboundData,
  type SendMessageBody,
} from '@parley/contracts';
import { EventPublisher, RpcClient, RpcProblemError } from '@parley/kafka';
import { ProblemException } from '@parley/service-kit';

/** The broker must take a send within this time, or the answer is 503 (CONTRACT.md §4). */
const ACCEPT_TIMEOUT_MS = 2000;

export interface SendResult {
  status: 'sent';
  message_id: string;
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
    private readonly rpc: RpcClient,
  ) {}

  async send(tenantId: string, body: SendMessageBody, requestId: string): Promise<SendResult> {
    if (body.from !== undefined) await this.checkSender(tenantId, body.from, requestId);
    // Seam for Idempotency-Key: a keyed send will derive this id from the tenant and the key.
    const messageId = newId('msg');
    const data: MessageOutboundData = {
      message_id: messageId,
      channel: body.channel,
      from: body.from ?? null,
      to: body.to,
      content: body.template
        ? { type: 'template', template: { name: body.template.name, language: { ...body.template.language }, ...(body.template.components ? { components: body.template.components } : {}) } }
        : { type: 'text', text: body.message! },
      origin: 'api',
      accepted_at: new Date().toISOString(),
    };
    try {
      await this.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), conversationKey(tenantId, body.to), requestId, {
        timeoutMs: ACCEPT_TIMEOUT_MS,
      });
    } catch (err) {
      this.logger.warn(`send ${messageId} not accepted by the broker: ${String(err)}`);
      throw new ProblemException(
        problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'The message could not be queued right now and was not sent; retry shortly.'),
        { 'retry-after': '5' },
      );
    }
    return { status: 'sent', message_id: messageId };
  }

  /** `from` must be one of the tenant's connected numbers. */
  private async checkSender(tenantId: string, from: string, requestId: string): Promise<void> {
    try {
      await this.rpc.request('channels.resolve-sender', { tenant_id: tenantId, phone_number: from }, { requestId });
    } catch (err) {
      if (err instanceof RpcProblemError && err.problem.status === 404) {
        throw new ProblemException(validationProblem([{ field: 'from', message: 'from is not one of your connected numbers' }]));
      }
      throw err;
    }
  }
}
