import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'succeeded' | 'dead';

/** An event as tenants receive it; kept 7 days so it can be replayed. `payload` is the exact webhook body. */
@Entity({ name: 'events' })
export class WebhookEventEntity {
  /** The Kafka envelope id; sent as `webhook-id`. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'json' })
  payload!: unknown;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** The conversation (tenant + customer) the event belongs to, for ordered endpoints; null when none. */
  @Column({ name: 'ordering_key', type: 'text', nullable: true })
  orderingKey!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** One event on its way to one endpoint. */
@Entity({ name: 'deliveries' })
export class DeliveryEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  status!: DeliveryStatus;

  @Column({ name: 'attempt_count', type: 'int', default: 0 })
  attemptCount!: number;

  /** When the next attempt is due (pending only). */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  /** Lease of the worker making an attempt; a crashed worker's lease simply runs out. */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode!: number | null;

  /** The event's conversation; an ordered endpoint gets one delivery of a conversation at a time. */
  @Column({ name: 'ordering_key', type: 'text', nullable: true })
  orderingKey!: string | null;

  /** Attempts made before the last manual retry or replay: the retry schedule counts from here. */
  @Column({ name: 'retry_base', type: 'int', default: 0 })
  retryBase!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** What happened on one attempt, for the tenant's delivery log. */
@Entity({ name: 'delivery_attempts' })
export class DeliveryAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'text' })
  deliveryId!: string;

  @PrimaryColumn({ type: 'int' })
  attempt!: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt!: Date;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt!: string | null;
}
