import type { AgentRecord } from '@parley/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The responder's copy of one agent (by tenant and name), as last announced on `agent.changed`. A deleted agent stays
 * as a tombstone (`deleted_at` set, record cleared) so a late or replayed change of it cannot bring it back; a newer
 * agent of that name replaces it.
 */
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

  /** The agent as announced; null on a tombstone. */
  @Column({ type: 'jsonb', nullable: true })
  record!: AgentRecord | null;

  /** Orders the tenant's agents for the "oldest agent answers" fallback; null on a tombstone. */
  @Column({ name: 'agent_created_at', type: 'timestamptz', nullable: true })
  agentCreatedAt!: Date | null;

  /** When the deletion was applied here. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
