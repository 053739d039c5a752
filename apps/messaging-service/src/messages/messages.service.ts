import { Injectable } from '@nestjs/common';
import { notFoundProblem, type FieldError, type MessageListQuery, type MessageRecord, type MessageStatusRecord, type Page } from '@parley/contracts';
import { CURSOR_ERROR, ListCursors, ProblemException } from '@parley/service-kit';
import { invalid, pageLimit } from '../common/paging';
import { normalisePhone } from '../common/phone';
import { toMessageRecord } from './messages.mapper';
import { MessagesStore } from './messages.store';

/** Ids one `messages.statuses` call may ask about: a thread's newest (responder-service's THREAD_LIMIT). */
export const MAX_STATUS_IDS = 1000;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Reads of a tenant's messages (CONTRACT.md §4). Another tenant's message does not exist. */
@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesStore,
    private readonly cursors: ListCursors,
  ) {}

  async get(tenantId: string, messageId: string): Promise<MessageRecord> {
    const message = typeof messageId === 'string' ? await this.messages.find(tenantId, messageId) : null;
    if (!message) throw new ProblemException(notFoundProblem(`Message "${String(messageId)}"`));
    return toMessageRecord(message);
  }

  /**
   * Where each of a tenant's messages stands (the inbox's ticks) and an email's subject: one indexed read for up to MAX_STATUS_IDS ids;
   * another tenant's and unknown ids are left out.
   */
  async statuses(tenantId: string, messageIds: unknown): Promise<{ data: MessageStatusRecord[] }> {
    if (!Array.isArray(messageIds) || messageIds.length > MAX_STATUS_IDS || !messageIds.every((id) => typeof id === 'string')) {
      throw invalid([{ field: 'message_ids', message: `message_ids must be a list of at most ${MAX_STATUS_IDS} message ids` }]);
    }
    if (messageIds.length === 0) return { data: [] };
    const rows = await this.messages.statuses(tenantId, messageIds);
    return {
      data: rows.map((m) => ({
        message_id: m.id,
        status: m.status,
        ...(m.error ? { error: { code: m.error.code, title: m.error.title } } : {}),
        ...(m.subject ? { subject: m.subject } : {}),
      })),
    };
  }

  /** Newest first, filtered by direction, customer or business number, and creation time. */
  async list(tenantId: string, query: Omit<MessageListQuery, 'limit'> & { limit?: number }): Promise<Page<MessageRecord>> {
    const limit = pageLimit(query.limit);
    const errors: FieldError[] = [];
    if (query.direction != null && query.direction !== 'outbound' && query.direction !== 'inbound') {
      errors.push({ field: 'direction', message: 'direction must be one of: outbound, inbound' });
    }
    if (query.since != null && (typeof query.since !== 'string' || !RFC3339.test(query.since) || Number.isNaN(Date.parse(query.since)))) {
      errors.push({ field: 'since', message: 'since must be an RFC 3339 timestamp, e.g. 2026-01-31T12:00:00Z' });
    }
    const cursors = this.cursors.of(tenantId, 'messages');
    const after = query.cursor != null ? cursors.decode(query.cursor) : null;
    if (query.cursor != null && after === null) errors.push(CURSOR_ERROR);
    for (const field of ['to', 'from'] as const) {
      if (query[field] != null && (typeof query[field] !== 'string' || !query[field].trim())) errors.push({ field, message: `${field} must be a phone number or user id` });
    }
    if (errors.length) throw invalid(errors);

    const filter = {
      direction: query.direction ?? undefined,
      to: query.to ? normalisePhone(query.to) : undefined,
      from: query.from ? normalisePhone(query.from) : undefined,
      since: query.since ? new Date(query.since) : undefined,
    };
    const rows = await this.messages.list(tenantId, filter, limit + 1, after);
    return { data: rows.slice(0, limit).map(toMessageRecord), next_cursor: cursors.next(rows, limit, (row) => row.seq) };
  }
}
