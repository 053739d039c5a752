import type { Booking, Faq, Skill } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'agents' })
@Index('agents_tenant_name_live', ['tenantId', 'name'], { unique: true, where: 'deleted_at IS NULL' })
export class AgentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  instruction!: string;

  @Column({ type: 'text' })
  greeting!: string;

  @Column({ type: 'jsonb' })
  skills!: Skill[];

  @Column({ type: 'jsonb' })
  faqs!: Faq[];

  @Column({ type: 'jsonb', nullable: true })
  booking!: Booking | null;

  @Column({ type: 'int' })
  version!: number;

  /** Last version announced on `agent.changed`; behind `version` until the event is acknowledged. */
  @Column({ name: 'published_version', type: 'int', default: 0 })
  publishedVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Set on delete; the row is removed once the deletion has been announced. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}

/** Every version an agent had, so a change can be inspected and rolled back. */
@Entity({ name: 'agent_versions' })
export class AgentVersionEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @PrimaryColumn({ type: 'int' })
  version!: number;

  @Column({ type: 'jsonb' })
  body!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
