import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AgentRecord } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { AgentReadEntity } from './agent.entity';

/**
 * The read model of agents, one row per tenant and name. Each change is one statement, so two concurrent deliveries
 * cannot both decide on a stale row; it answers whether it applied.
 */
@Injectable()
export class AgentsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The row of that name, live or a tombstone. */
  find(tenantId: string, name: string): Promise<AgentReadEntity | null> {
    return this.db.getRepository(AgentReadEntity).findOne({ where: { tenantId, name } });
  }

  /** The tenant's oldest live agent (by creation, then id). */
  oldestLive(tenantId: string, tx: EntityManager = this.db.manager): Promise<AgentReadEntity | null> {
    return tx
      .getRepository(AgentReadEntity)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId AND a.deleted_at IS NULL', { tenantId })
      .orderBy('a.agent_created_at', 'ASC')
      .addOrderBy('a.agent_id', 'ASC')
      .getOne();
  }

  findLive(tenantId: string, name: string, tx: EntityManager = this.db.manager): Promise<AgentReadEntity | null> {
    return tx.getRepository(AgentReadEntity).createQueryBuilder('a').where('a.tenant_id = :tenantId AND a.name = :name AND a.deleted_at IS NULL', { tenantId, name }).getOne();
  }

  /**
   * The agent at `version` replaces the row when the row is the same agent, live, at an older version, or an older agent
   * of that name (agent ids are time-ordered).
   */
  async upsert(tenantId: string, name: string, agentId: string, version: number, agent: AgentRecord): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO agents AS cur (tenant_id, name, agent_id, version, record, agent_created_at, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, NULL)
       ON CONFLICT (tenant_id, name) DO UPDATE SET
         agent_id = EXCLUDED.agent_id, version = EXCLUDED.version, record = EXCLUDED.record,
         agent_created_at = EXCLUDED.agent_created_at, deleted_at = NULL
       WHERE (cur.agent_id = EXCLUDED.agent_id AND cur.deleted_at IS NULL AND EXCLUDED.version > cur.version)
          OR EXCLUDED.agent_id > cur.agent_id
       RETURNING agent_id`,
      [tenantId, name, agentId, version, JSON.stringify(agent), agent.created_at],
    );
    return rows.length > 0;
  }

  /** A tombstone replaces the row when the row is the same agent, live, at this version or older, or an older agent of that name. */
  async tombstone(tenantId: string, name: string, agentId: string, version: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO agents AS cur (tenant_id, name, agent_id, version, record, agent_created_at, deleted_at)
       VALUES ($1, $2, $3, $4, NULL, NULL, now())
       ON CONFLICT (tenant_id, name) DO UPDATE SET
         agent_id = EXCLUDED.agent_id, version = EXCLUDED.version, record = NULL, agent_created_at = NULL,
         deleted_at = EXCLUDED.deleted_at
       WHERE (cur.agent_id = EXCLUDED.agent_id AND cur.deleted_at IS NULL AND EXCLUDED.version >= cur.version)
          OR EXCLUDED.agent_id > cur.agent_id
       RETURNING agent_id`,
      [tenantId, name, agentId, version],
    );
    return rows.length > 0;
  }
}
