import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId } from '@parley/contracts';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { markAgentDocumentsDeleted } from '../documents/documents.store';
import { AgentEntity, AgentVersionEntity } from './agent.entity';
import type { AgentBody } from './agents.mapper';

const UNIQUE_VIOLATION = '23505';

/** What `replace` did: a new agent, a new version of one, or nothing (the body was the agent's already). */
export interface Replaced {
  created: boolean;
  changed: boolean;
  entity: AgentEntity;
}

/**
 * Agents and their kept versions as stored. A live agent is one not deleted; a deleted one stays until its deletion
 * is announced (`markAnnounced`). The tenant id is the first parameter of every method that reads a tenant's agents.
 */
@Injectable()
export class AgentsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findLive(tenantId: string, name: string): Promise<AgentEntity | null> {
    return liveAgent(this.db.manager, tenantId, name);
  }

  /** Live agents newest first: up to `limit` with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, limit: number, beforeId: string | null): Promise<AgentEntity[]> {
    const query = this.db
      .getRepository(AgentEntity)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId AND a.deleted_at IS NULL', { tenantId })
      .orderBy('a.id', 'DESC')
      .take(limit);
    if (beforeId !== null) query.andWhere('a.id < :beforeId', { beforeId });
    return query.getMany();
  }

  /** An agent's versions newest first: up to `limit` below `beforeVersion` (null: from the newest). */
  versions(tenantId: string, agentId: string, limit: number, beforeVersion: number | null): Promise<AgentVersionEntity[]> {
    const query = this.db
      .getRepository(AgentVersionEntity)
      .createQueryBuilder('v')
      .innerJoin(AgentEntity, 'a', 'a.id = v.agent_id AND a.tenant_id = :tenantId', { tenantId })
      .where('v.agent_id = :agentId', { agentId })
      .orderBy('v.version', 'DESC')
      .take(limit);
    if (beforeVersion !== null) query.andWhere('v.version < :beforeVersion', { beforeVersion });
    return query.getMany();
  }

  version(tenantId: string, agentId: string, version: number): Promise<AgentVersionEntity | null> {
    return this.db
      .getRepository(AgentVersionEntity)
      .createQueryBuilder('v')
      .innerJoin(AgentEntity, 'a', 'a.id = v.agent_id AND a.tenant_id = :tenantId', { tenantId })
      .where('v.agent_id = :agentId AND v.version = :version', { agentId, version })
      .getOne();
  }

  /**
   * Makes `body` the live agent of its name: a new agent, or the next version of the live one (kept in its versions),
   * unless `unchanged` says the live one already is that body. The live agent is locked meanwhile; two first PUTs of
   * one name racing: the loser replaces what the winner created.
   */
  async replace(tenantId: string, body: AgentBody, unchanged: (live: AgentEntity) => boolean): Promise<Replaced> {
    const attempt = () => this.db.transaction((tx) => this.replaceIn(tx, tenantId, body, unchanged));
    try {
      return await attempt();
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      return attempt();
    }
  }

  /**
   * Changes the live agent of that name by `change` (read and written under its row lock, so a PUT meanwhile is not
   * lost); null when there is none.
   */
  amend(tenantId: string, name: string, change: (live: AgentEntity) => AgentBody, unchanged: (live: AgentEntity, body: AgentBody) => boolean): Promise<Replaced | null> {
    return this.db.transaction(async (tx) => {
      const live = await liveAgent(tx, tenantId, name, true);
      if (!live) return null;
      const body = change(live);
      return this.replaceIn(tx, tenantId, body, (current) => unchanged(current, body));
    });
  }

  /** Marks the live agent deleted, with its documents (their tombstones are announced by the relay); null when none. */
  markDeleted(tenantId: string, name: string): Promise<AgentEntity | null> {
    return this.db.transaction(async (tx) => {
      const agent = await liveAgent(tx, tenantId, name, true);
      if (!agent) return null;
      agent.deletedAt = new Date();
      await markAgentDocumentsDeleted(tx, tenantId, agent.id);
      return tx.save(agent);
    });
  }

  /** The announced version is recorded; a deleted agent's row goes. Unless it changed since (another announcement follows). */
  async markAnnounced(agent: AgentEntity): Promise<void> {
    const repo = this.db.getRepository(AgentEntity);
    if (agent.deletedAt !== null) await repo.delete({ id: agent.id, version: agent.version });
    else await repo.update({ id: agent.id, version: agent.version }, { publishedVersion: agent.version });
  }

  /** Every tenant's agents whose last change is not announced yet (a second old, so a change being announced is left alone), oldest first. */
  unannounced(limit: number): Promise<AgentEntity[]> {
    return this.db
      .getRepository(AgentEntity)
      .createQueryBuilder('a')
      .where('a.published_version < a.version OR a.deleted_at IS NOT NULL')
      .andWhere(`a.updated_at < now() - interval '1 second'`)
      .orderBy('a.updated_at', 'ASC')
      .take(limit)
      .getMany();
  }

  private async replaceIn(tx: EntityManager, tenantId: string, body: AgentBody, unchanged: (live: AgentEntity) => boolean): Promise<Replaced> {
    const existing = await liveAgent(tx, tenantId, body.name, true);
    if (existing && unchanged(existing)) return { created: false, changed: false, entity: existing };
    const entity = existing ?? tx.getRepository(AgentEntity).create({ id: newId('agt'), tenantId, version: 0, publishedVersion: 0, deletedAt: null });
    Object.assign(entity, body, { version: entity.version + 1 });
    const saved = await tx.save(entity);
    await tx.save(tx.getRepository(AgentVersionEntity).create({ agentId: saved.id, version: saved.version, body: { ...body } }));
    return { created: !existing, changed: true, entity: saved };
  }
}

function liveAgent(manager: EntityManager, tenantId: string, name: string, lock = false): Promise<AgentEntity | null> {
  return manager.getRepository(AgentEntity).findOne({
    where: { tenantId, name, deletedAt: IsNull() },
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
}
