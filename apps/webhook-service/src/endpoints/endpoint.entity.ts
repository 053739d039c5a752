import type { WebhookEventType } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A tenant's webhook endpoint. */
@Entity({ name: 'endpoints' })
export class EndpointEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'jsonb' })
  events!: WebhookEventType[];

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Deliver in event order, one at a time (honoured by a later version of the dispatcher). */
  @Column({ type: 'boolean', default: false })
  ordered!: boolean;

  /** `whsec_<base64 of 32 random bytes>`; kept readable because every attempt is signed with it. */
  @Column({ type: 'text' })
  secret!: string;

  /** The secret before the last rotation: also signs until it expires. */
  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  /** Why the service disabled the endpoint (410 Gone, days of failure); null when the tenant did or it is enabled. */
  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  /** Start of the current run of failed attempts; cleared by a success. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
