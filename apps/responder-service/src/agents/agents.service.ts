import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AgentChangedEvent, AgentRecord } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { MalformedEventError } from '../common/malformed-event.error';
import { AgentReadEntity } from './agent.entity';
import { selectAgent } from './agent-selection';

export type AgentChangeOutcome = 'applied' | 'ignored';

/**
 * The responder's read model of agents, fed by `agent.changed`, and the answer to "which agent replies here".
 *
 * Changes are applied so that redelivery, replay from an older offset, or a late re-announcement never move the
 * model backwards: an upsert wins only over an older version of the same agent, or over an older agent of the same
 * name; a deletion only hides the agent it was about (nothing changed after it was announced).
 */
@Injectable()
export class AgentsService {
  private readonly logger = new Logger(AgentsService.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async applyChange(event: AgentChangedEvent): Promise<AgentChangeOutcome> {
    const data: Partial<AgentChangedEvent['data']> = event?.data ?? {};
    const { tenant_id: tenantId, name, agent } = data;
    if (typeof tenantId !== 'string' || typeof name !== 'string' || agent === undefined) {
      throw new MalformedEventError('agent.changed', 'data.tenant_id, data.name and data.agent are required');
    }
    const outcome = agent === null ? await this.markDeleted(tenantId, name, event.occurred_at) : await this.upsert(tenantId, name, agent);
    this.logger.debug(`agent.changed ${event.id} (${agent ? `${agent.id} v${agent.version}` : 'deleted'}): ${outcome}`);
    return outcome;
  }

  /** The agent that answers on a channel (CONTRACT.md §6), or null when the tenant has none. */
  async answeringAgent(tenantId: string, channelAgent: string | null, manager: EntityManager = this.db.manager): Promise<AgentRecord | null> {
    const repo = manager.getRepository(AgentReadEntity);
    const oldest = await repo
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId AND a.deleted_at IS NULL', { tenantId })
      .orderBy('a.agent_created_at', 'ASC')
      .addOrderBy('a.agent_id', 'ASC')
      .getOne();
    const named =
      channelAgent === null || channelAgent === oldest?.name
        ? null
        : await repo.createQueryBuilder('a').where('a.tenant_id = :tenantId AND a.name = :name AND a.deleted_at IS NULL', { tenantId, name: channelAgent }).getOne();
    return selectAgent(channelAgent, [oldest, named].filter((a): a is AgentReadEntity => a !== null).map((a) => a.record));
  }

  private async upsert(tenantId: string, name: string, agent: AgentRecord): Promise<AgentChangeOutcome> {
    if (agent.name !== name || typeof agent.id !== 'string' || !Number.isInteger(agent.version) || !agent.created_at || !agent.updated_at) {
      throw new MalformedEventError('agent.changed', 'data.agent must be an agent record named like data.name');
    }
    // One statement, so two concurrent deliveries cannot both decide on a stale row.
    const rows: unknown[] = await this.db.query(
      `INSERT INTO agents AS cur (tenant_id, name, agent_id, version, record, agent_created_at, agent_updated_at, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
       ON CONFLICT (tenant_id, name) DO UPDATE SET
         agent_id = EXCLUDED.agent_id, version = EXCLUDED.version, record = EXCLUDED.record,
         agent_created_at = EXCLUDED.agent_created_at, agent_updated_at = EXCLUDED.agent_updated_at, deleted_at = NULL
       WHERE (cur.agent_id = EXCLUDED.agent_id AND cur.deleted_at IS NULL AND EXCLUDED.version > cur.version)
          OR (cur.agent_id <> EXCLUDED.agent_id
              AND (EXCLUDED.agent_created_at, EXCLUDED.agent_id) > (cur.agent_created_at, cur.agent_id))
       RETURNING agent_id`,
      [tenantId, name, agent.id, agent.version, JSON.stringify(agent), agent.created_at, agent.updated_at],
    );
    return rows.length > 0 ? 'applied' : 'ignored';
  }

  /**
   * `agent.changed` with `agent: null` names no agent id or version, so "the agent it was about" is the live agent
   * last changed before the deletion was announced. A newer agent of the same name (re-created after a replayed
   * deletion) survives it.
   */
  private async markDeleted(tenantId: string, name: string, occurredAt: string): Promise<AgentChangeOutcome> {
    const at = new Date(occurredAt);
    if (Number.isNaN(at.getTime())) throw new MalformedEventError('agent.changed', 'occurred_at must be a timestamp');
    const result = await this.db
      .getRepository(AgentReadEntity)
      .createQueryBuilder()
      .update()
      .set({ deletedAt: at })
      .where('tenant_id = :tenantId AND name = :name AND deleted_at IS NULL AND agent_updated_at <= :at', { tenantId, name, at })
      .execute();
    return result.affected ? 'applied' : 'ignored';
  }
}
