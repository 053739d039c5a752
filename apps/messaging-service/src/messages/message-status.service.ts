import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Headers, Topics, conversationKey, derivedId, type MessageStatusData, type OutboundStatus } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { DataSource } from 'typeorm';
import { GroupCommit } from '@parley/service-kit';
import { MessageEntity } from './message.entity';
import { advanceStatus, type IncomingStatus } from './status-machine';

const PUBLISH_TIMEOUT_MS = 5000;

/**
 * Moves outbound messages through their statuses and announces each new status on `message.status`.
 *
 * What has been announced is tracked per message (`announced_statuses` counts the announced history entries), so a
 * redelivered event whose change was stored but not yet announced announces it then. Event ids derive from the
 * message and the status, so an announcement repeated after a crash is one event to every consumer. A message's
 * first `sent` is announced only once the provider accepted it.
 */
@Injectable()
export class MessageStatusService {
  /** Concurrent "announced up to" marks share one statement (group commit). */
  private readonly announcedMarks = new GroupCommit<{ id: string; announced: number }, void>((marks) => this.writeAnnounced(marks));

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly publisher: EventPublisher,
  ) {}

  /** Applies a status to one of the tenant's outbound messages; announces what changed. */
  async apply(tenantId: string, messageId: string, incoming: IncomingStatus, requestId?: string): Promise<MessageEntity | null> {
    const message = await this.db.transaction(async (tx) => {
      const row = await tx.getRepository(MessageEntity).findOne({ where: { id: messageId, tenantId, direction: 'outbound' }, lock: { mode: 'pessimistic_write' } });
      if (!row) return null;
      const change = advanceStatus({ status: row.status as OutboundStatus, history: row.statusHistory }, incoming);
      if (!change) return row;
      // Entries recorded before the provider took the message (its provisional `sent`) are never announced.
      if (row.providerMessageId === null) row.announcedStatuses = Math.max(row.announcedStatuses, change.history.length - change.added.length);
      row.status = change.status;
      row.statusHistory = change.history;
      row.error = change.error;
      return tx.save(row);
    });
    if (message) await this.announce(message, requestId);
    return message;
  }

  /** The outbound message a provider status refers to (by its wamid on that channel), or null when not (yet) known. */
  findByProviderId(tenantId: string, channelId: string, providerMessageId: string): Promise<MessageEntity | null> {
    return this.db.getRepository(MessageEntity).findOne({ where: { tenantId, channelId, providerMessageId, direction: 'outbound' } });
  }

  /** Publishes the history entries not yet announced, then records them as announced. */
  async announce(message: MessageEntity, requestId?: string): Promise<void> {
    const accepted = message.providerMessageId !== null || message.status === 'failed';
    const pending = accepted ? message.statusHistory.slice(message.announcedStatuses) : [];
    if (pending.length === 0) return;
    const key = conversationKey(message.tenantId, message.to);
    await this.publisher.publish(
      pending.map((entry) => {
        const data: MessageStatusData = {
          event: 'message.status',
          channel: 'whatsapp',
          tenant_id: message.tenantId,
          message_id: message.id,
          status: entry.status as OutboundStatus,
          to: message.to,
          at: entry.at,
          ...(entry.status === 'failed' && message.error ? { error: message.error } : {}),
        };
        const envelope = EventPublisher.envelope(Topics.MessageStatus, message.tenantId, data, derivedId('evt', 'status', message.id, entry.status));
        return { topic: Topics.MessageStatus, key, value: envelope, headers: { [Headers.RequestId]: requestId, [Headers.EventType]: Topics.MessageStatus } };
      }),
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );
    const announced = message.statusHistory.length;
    await this.announcedMarks.add({ id: message.id, announced });
    message.announcedStatuses = Math.max(message.announcedStatuses, announced);
  }

  private async writeAnnounced(marks: { id: string; announced: number }[]): Promise<void[]> {
    await this.db.query(
      `UPDATE messages m SET announced_statuses = GREATEST(m.announced_statuses, x.announced), updated_at = now()
       FROM (SELECT id, max(announced) AS announced FROM jsonb_to_recordset($1::jsonb) AS r(id text, announced int) GROUP BY id) x
       WHERE m.id = x.id`,
      [JSON.stringify(marks)],
    );
    return marks.map(() => undefined);
  }
}
