import { Injectable, Logger } from '@nestjs/common';
import type { ConversationRecord, ConversationTurnRecord, MessageStatusRecord } from '@parley/contracts';
import { RpcClient } from '@parley/kafka';

/** A thread's statuses must not hold the thread up for long: past this, it is shown without its ticks. */
const STATUSES_TIMEOUT_MS = 2_000;

/**
 * The inbox's ticks (issue 32): each message of a thread to the customer with what became of it (`sent`, `delivered`,
 * `read`, `failed` and why), asked of messaging-service, which owns statuses, in one call per thread. An email thread
 * asks about the customer's mails too, for their subject lines (messaging-service keeps the mail). Should it not
 * answer in time, the thread is shown with `status: null` (unknown) rather than not at all; the events stream's
 * `message.status` keeps the ticks moving in the dashboard either way.
 */
@Injectable()
export class ThreadStatuses {
  private readonly logger = new Logger(ThreadStatuses.name);

  constructor(private readonly rpc: RpcClient) {}

  async withStatuses(tenantId: string, conversation: ConversationRecord, requestId: string): Promise<ConversationRecord> {
    const email = conversation.channel === 'email';
    const asked = conversation.messages.filter((m) => email || m.role !== 'customer').map((m) => m.message_id);
    if (asked.length === 0) return email ? { ...conversation, subject: null } : conversation;
    let known = new Map<string, MessageStatusRecord>();
    try {
      const { data } = await this.rpc.request('messages.statuses', { tenant_id: tenantId, message_ids: asked }, { requestId, timeoutMs: STATUSES_TIMEOUT_MS });
      known = new Map(data.map((s) => [s.message_id, s]));
    } catch (err) {
      this.logger.warn(`conversation ${conversation.id}: its messages' statuses could not be read, shown without them: ${String(err)}`);
    }
    const messages = conversation.messages.map((m) => withSubject(m.role === 'customer' ? m : withStatus(m, known.get(m.message_id)), known.get(m.message_id)));
    if (!email) return { ...conversation, messages };
    const subject = messages.filter((m) => m.role === 'customer' && m.subject).at(-1)?.subject ?? null;
    return { ...conversation, subject, messages };
  }
}

function withStatus(message: ConversationTurnRecord, record: MessageStatusRecord | undefined): ConversationTurnRecord {
  // `received` is an inbound message's: never one of ours.
  if (!record || record.status === 'received') return { ...message, status: null };
  return { ...message, status: record.status, ...(record.error ? { error: record.error } : {}) };
}

function withSubject(message: ConversationTurnRecord, record: MessageStatusRecord | undefined): ConversationTurnRecord {
  return record?.subject ? { ...message, subject: record.subject } : message;
}
