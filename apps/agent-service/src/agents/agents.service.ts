import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  Topics,
  UpsertAgentBody,
  newId,
  notFoundProblem,
  type AgentChangedData,
  type AgentRecord,
  type AgentVersionRecord,
  type AgentVersionSummary,
  type Page,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { AnnouncementRelay } from '../announcements/announcement-relay';
import { deleteAgentDocuments } from '../documents/documents.service';
import { AgentEntity, AgentVersionEntity } from './agent.entity';
import { agentBody, sameBody, toAgentRecord, toVersionRecord, toVersionSummary, type AgentBody } from './agents.mapper';

const UNIQUE_VIOLATION = '23505';

/**
 * Owns agents: create/replace with versions, reads, deletes, all scoped by tenant. Every change is announced on
 * `agent.changed`; a change whose announcement failed is re-announced by the relay, so the responder's read model
 * always catches up.
 */
@Injectable()
export class AgentsService {
  private readonly logger = new Logger(AgentsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly publisher: EventPublisher,
    private readonly cursors: ListCursors,
    private readonly relay: AnnouncementRelay,
  ) {
    relay.register({ name: 'agents', relayPending: () => this.relayPending() });
  }

  /** PUT semantics: the body replaces the whole agent. An identical body keeps the version. */
  async upsert(tenantId: string, name: string, rawBody: unknown, requestId?: string): Promise<{ created: boolean; agent: AgentRecord }> {
    const body = agentBody(await validateDto(UpsertAgentBody, rawBody));
    if (body.name !== name) {
      throw new ProblemException({
        type: 'https://parley.dev/problems/validation-error',
        title: 'Invalid request',
        status: 400,
        detail: 'The body name must equal the agent name in the path.',
        errors: [{ field: 'name', message: `name must equal the path name "${name}"` }],
      });
    }
    const result = await this.upsertWithRetry(tenantId, body);
    if (result.changed) await this.announce(result.entity, requestId);
    return { created: result.created, agent: toAgentRecord(result.entity) };
  }

  async get(tenantId: string, name: string): Promise<AgentRecord> {
    return toAgentRecord(await this.findLive(this.db.manager, tenantId, name));
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<AgentRecord>> {
    const cursors = this.cursors.of(tenantId, 'agents');
    const after = cursors.after(cursor);
    const qb = this.db
      .getRepository(AgentEntity)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId AND a.deleted_at IS NULL', { tenantId })
      .orderBy('a.id', 'DESC')
      .take(limit + 1);
    if (after !== null) qb.andWhere('a.id < :after', { after });
    const rows = await qb.getMany();
    return { data: rows.slice(0, limit).map(toAgentRecord), next_cursor: cursors.next(rows, limit, (row) => row.id) };
  }

  /** The kept versions of the live agent of that name, newest first. */
  async versions(tenantId: string, name: string, limit: number, cursor: string | null): Promise<Page<AgentVersionSummary>> {
    const cursors = this.cursors.of(tenantId, `agents/${name}/versions`);
    const after = cursors.after(cursor);
    const agent = await this.findLive(this.db.manager, tenantId, name);
    const qb = this.db
      .getRepository(AgentVersionEntity)
      .createQueryBuilder('v')
      .where('v.agent_id = :agentId', { agentId: agent.id })
      .orderBy('v.version', 'DESC')
      .take(limit + 1);
    if (after !== null) qb.andWhere('v.version < :after', { after: Number(after) });
    const rows = await qb.getMany();
    return { data: rows.slice(0, limit).map(toVersionSummary), next_cursor: cursors.next(rows, limit, (row) => String(row.version)) };
  }

  async version(tenantId: string, name: string, version: number): Promise<AgentVersionRecord> {
    const agent = await this.findLive(this.db.manager, tenantId, name);
    const row = await this.db.getRepository(AgentVersionEntity).findOne({ where: { agentId: agent.id, version } });
    if (!row) throw new ProblemException(notFoundProblem(`Version ${version} of agent "${name}"`));
    return toVersionRecord(row);
  }

  async delete(tenantId: string, name: string, requestId?: string): Promise<void> {
    const entity = await this.db.transaction(async (tx) => {
      const agent = await this.findLive(tx, tenantId, name, true);
      agent.deletedAt = new Date();
      await deleteAgentDocuments(tx, agent.id);
      return tx.save(agent);
    });
    await this.announce(entity, requestId);
    // The agent's documents were left to the relay (their tombstones).
    this.relay.wake();
  }

  private async upsertWithRetry(tenantId: string, body: AgentBody) {
    try {
      return await this.db.transaction((tx) => this.upsertIn(tx, tenantId, body));
    } catch (err) {
      // Two first PUTs of one name raced; the loser replaces what the winner created.
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      return this.db.transaction((tx) => this.upsertIn(tx, tenantId, body));
    }
  }

  private async upsertIn(tx: EntityManager, tenantId: string, body: AgentBody) {
    const existing = await tx.getRepository(AgentEntity).findOne({
      where: { tenantId, name: body.name, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (existing && sameBody(existing, body)) return { created: false, changed: false, entity: existing };
    const entity = existing ?? tx.getRepository(AgentEntity).create({ id: newId('agt'), tenantId, version: 0, publishedVersion: 0, deletedAt: null });
    Object.assign(entity, body, { version: entity.version + 1 });
    const saved = await tx.save(entity);
    await tx.save(tx.getRepository(AgentVersionEntity).create({ agentId: saved.id, version: saved.version, body: { ...body } }));
    return { created: !existing, changed: true, entity: saved };
  }

  private async findLive(manager: EntityManager, tenantId: string, name: string, lock = false): Promise<AgentEntity> {
    const agent = await manager.getRepository(AgentEntity).findOne({
      where: { tenantId, name, deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!agent) throw new ProblemException(notFoundProblem(`Agent "${name}"`));
    return agent;
  }

  /** Publishes the agent's current state (or its deletion); marks it announced once the broker acknowledged. */
  private async announce(entity: AgentEntity, requestId?: string): Promise<void> {
    const deleted = entity.deletedAt !== null;
    const data: AgentChangedData = {
      tenant_id: entity.tenantId,
      name: entity.name,
      agent_id: entity.id,
      version: entity.version,
      agent: deleted ? null : toAgentRecord(entity),
    };
    try {
      await this.publisher.publishEvent(
        EventPublisher.envelope(Topics.AgentChanged, entity.tenantId, data, newId('evt')),
        `${entity.tenantId}:${entity.name}`,
        requestId,
        { timeoutMs: 5000 },
      );
    } catch (err) {
      this.logger.warn(`agent.changed for ${entity.id} not published yet (the relay retries): ${String(err)}`);
      this.relay.retrySoon();
      return;
    }
    if (deleted) await this.db.getRepository(AgentEntity).delete({ id: entity.id, version: entity.version });
    else await this.db.getRepository(AgentEntity).update({ id: entity.id, version: entity.version }, { publishedVersion: entity.version });
  }

  /** Re-announces changes whose first announcement failed (broker down at the time, or a crash in between). */
  async relayPending(): Promise<number> {
    const pending = await this.db
      .getRepository(AgentEntity)
      .createQueryBuilder('a')
      .where('a.published_version < a.version OR a.deleted_at IS NOT NULL')
      .andWhere(`a.updated_at < now() - interval '1 second'`)
      .orderBy('a.updated_at', 'ASC')
      .take(100)
      .getMany();
    for (const agent of pending) await this.announce(agent);
    return pending.length;
  }
}
