import type { EventEnvelope } from '@parley/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An event as it is published: kept so a redelivery republishes exactly the same thing. */
export interface StoredEvent {
  topic: string;
  key: string;
  value: EventEnvelope<string, object>;
}

/**
 * One row per inbound message the responder handled: the exactly-once guard (its primary key) and the outbox of
 * the events that handling produced, published after the commit.
 */
@Entity({ name: 'processed_messages' })
export class ProcessedMessageEntity {
  @PrimaryColumn({ name: 'inbound_message_id', type: 'text' })
  inboundMessageId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'conversation_id', type: 'text' })
  conversationId!: string;

  @Column({ name: 'reply_message_id', type: 'text', nullable: true })
  replyMessageId!: string | null;

  @Column({ type: 'jsonb' })
  events!: StoredEvent[];

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt!: Date;

  /** Null until the broker acknowledged the events (a crash in between republishes them on redelivery). */
  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;
}
