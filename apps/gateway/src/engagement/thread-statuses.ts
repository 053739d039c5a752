import { Injectable, Logger } from '@nestjs/common';
import type { ConversationRecord, ConversationTurnRecord, MessageStatusRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';

/** A thread's statuses must not hold the thread up for long: past this, it is shown without its ticks. */
const STATUSES_TIMEOUT_MS = 2_000;

/**
 * The inbox's ticks (issue 32): each message of a thread to the customer with what became of it (`sent`, `delivered`,
 * `read`, `failed` and why), asked of messaging-service, which owns statuses, in one call per thread. Should it not
 * answer in time, the thread is shown with `status: null` (unknown) rather than not at all; the events stream's
 * `message.status` keeps the ticks moving in the dashboard either way.
 */
@Injectable()
export class ThreadStatuses {
  private readonly logger = new Logger(ThreadStatuses.name);

  constructor(private readonly rpc: RpcClient) {}

  async withStatuses(tenantId: string, conversation: ConversationRecord, requestId: string): Promise<ConversationRecord> {
    const ours = conversation.messages.filter((m) => m.role !== 'customer').map((m) => m.message_id);
    if (ours.length === 0) return conversation;
    let known = new Map<string, MessageStatusRecord>();
    try {
      const { data } = await this.rpc.request('messages.statuses', { tenant_id: tenantId, message_ids: ours }, { requestId, timeoutMs: STATUSES_TIMEOUT_MS });
      known = new Map(data.map((s) => [s.message_id, s]));
    } catch (err) {
      this.logger.warn(`conversation ${conversation.id}: its messages' statuses could not be read, shown without them: ${String(err)}`);
    }
    return { ...conversation, messages: conversation.messages.map((m) => (m.role === 'customer' ? m : withStatus(m, known.get(m.message_id)))) };
  }
}

function withStatus(message: ConversationTurnRecord, record: MessageStatusRecord | undefined): ConversationTurnRecord {
  // `received` is an inbound message's: never one of ours.
  if (!record || record.status === 'received') return { ...message, status: null };
  return { ...message, status: record.status, ...(record.error ? { error: record.error } : {}) };
}
