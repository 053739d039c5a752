import { Injectable, Logger } from '@nestjs/common';
import {
  AddFaqsBody,
  ProblemTypes,
  Topics,
  UpsertAgentBody,
  newId,
  notFoundProblem,
  problem,
  type Faq,
  type AgentChangedData,
  type AgentRecord,
  type AgentVersionRecord,
  type AgentVersionSummary,
  type Page,
} from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { AnnouncementRelay } from '../announcements/announcement-relay';
import type { AgentEntity } from './agent.entity';
import { MAX_FAQS, agentBody, sameBody, toAgentRecord, toVersionRecord, toVersionSummary, withFaqs } from './agents.mapper';
import { AgentsStore } from './agents.store';

/** Agents the relay announces per pass. */
const RELAY_BATCH = 100;

/**
 * Owns agents: create/replace with versions, reads, deletes, all scoped by tenant. Every change is announced on
 * `agent.changed`; a change whose announcement failed is re-announced by the relay, so the responder's read model
 * always catches up.
 */
@Injectable()
export class AgentsService {
  private readonly logger = new Logger(AgentsService.name);

  constructor(
    private readonly agents: AgentsStore,
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
    const result = await this.agents.replace(tenantId, body, (live) => sameBody(live, body));
    if (result.changed) await this.announce(result.entity, requestId);
    return { created: result.created, agent: toAgentRecord(result.entity) };
  }

  /** FAQs added as a new version (a knowledge gap answered, CONTRACT.md §19); the same FAQs again change nothing. */
  async addFaqs(tenantId: string, name: string, faqs: Faq[], requestId?: string): Promise<AgentRecord> {
    const checked = await validateDto(AddFaqsBody, { faqs });
    const change = (live: AgentEntity) => {
      const body = withFaqs(live, checked.faqs);
      // thrown inside the transaction: nothing is written
      if (body.faqs.length > MAX_FAQS) {
        throw new ProblemException(problem(409, ProblemTypes.conflict, 'Conflict', `Agent "${name}" would have more than ${MAX_FAQS} FAQs; remove some first.`));
      }
      return body;
    };
    const result = await this.agents.amend(tenantId, name, change, sameBody);
    if (!result) throw new ProblemException(notFoundProblem(`Agent "${name}"`));
    if (result.changed) await this.announce(result.entity, requestId);
    return toAgentRecord(result.entity);
  }

  async get(tenantId: string, name: string): Promise<AgentRecord> {
    return toAgentRecord(await this.findLive(tenantId, name));
  }

  async list(tenantId: string, limit: number, cursor: string | null): Promise<Page<AgentRecord>> {
    const cursors = this.cursors.of(tenantId, 'agents');
    const rows = await this.agents.list(tenantId, limit + 1, cursors.after(cursor));
    return { data: rows.slice(0, limit).map(toAgentRecord), next_cursor: cursors.next(rows, limit, (row) => row.id) };
  }

  /** The kept versions of the live agent of that name, newest first. */
  async versions(tenantId: string, name: string, limit: number, cursor: string | null): Promise<Page<AgentVersionSummary>> {
    const cursors = this.cursors.of(tenantId, `agents/${name}/versions`);
    const after = cursors.after(cursor);
    const agent = await this.findLive(tenantId, name);
    const rows = await this.agents.versions(tenantId, agent.id, limit + 1, after === null ? null : Number(after));
    return { data: rows.slice(0, limit).map(toVersionSummary), next_cursor: cursors.next(rows, limit, (row) => String(row.version)) };
  }

  async version(tenantId: string, name: string, version: number): Promise<AgentVersionRecord> {
    const agent = await this.findLive(tenantId, name);
    const row = await this.agents.version(tenantId, agent.id, version);
    if (!row) throw new ProblemException(notFoundProblem(`Version ${version} of agent "${name}"`));
    return toVersionRecord(row);
  }

  async delete(tenantId: string, name: string, requestId?: string): Promise<void> {
    const entity = await this.agents.markDeleted(tenantId, name);
    if (!entity) throw new ProblemException(notFoundProblem(`Agent "${name}"`));
    await this.announce(entity, requestId);
    // The agent's documents were left to the relay (their tombstones).
    this.relay.wake();
  }

  private async findLive(tenantId: string, name: string): Promise<AgentEntity> {
    const agent = await this.agents.findLive(tenantId, name);
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
    await this.agents.markAnnounced(entity);
  }

  /** Re-announces changes whose first announcement failed (broker down at the time, or a crash in between). */
  async relayPending(): Promise<number> {
    const pending = await this.agents.unannounced(RELAY_BATCH);
    for (const agent of pending) await this.announce(agent);
    return pending.length;
  }
}
