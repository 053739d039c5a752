import type { AgentRecord } from '@parley/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The responder's copy of one agent (by tenant and name), as last announced on `agent.changed`. */
@Entity({ name: 'agents' })
export class AgentReadEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ type: 'int' })
  version!: number;

  @Column({ type: 'jsonb' })
  record!: AgentRecord;

  @Column({ name: 'agent_created_at', type: 'timestamptz' })
  agentCreatedAt!: Date;

  @Column({ name: 'agent_updated_at', type: 'timestamptz' })
  agentUpdatedAt!: Date;

  /** Set when the agent was deleted; the row stays as a tombstone until a newer agent of that name arrives. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
