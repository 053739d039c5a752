import { Injectable, Logger } from '@nestjs/common';
import { newId, type AgentChangedData, type AgentChangedEvent, type AgentRecord } from '@parley/contracts';
import type { EntityManager } from 'typeorm';
import { TestRunsQueued } from '../agent-tests/agent-tests-store.module';
import { AgentTestsStore } from '../agent-tests/agent-tests.store';
import { MalformedEventError } from '../common/malformed-event.error';
import { selectAgent } from './agent-selection';
import { AgentsStore } from './agents.store';

export type AgentChangeOutcome = 'applied' | 'ignored';

/**
 * The responder's read model of agents, fed by `agent.changed`, and the answer to "which agent replies here".
 *
 * Every change names its agent (`agent_id`) and that agent's version, so redelivery, replay from an older offset or a
 * late re-announcement never move the model backwards. Per tenant and name the model keeps one row, and a change
 * replaces it only when it is
 * - about the same agent, still live, at a newer version (an upsert) or at least the stored version (a deletion: it
 *   carries the last version the agent had); a deleted agent never changes again, so its tombstone stays; or
 * - about a newer agent of that name. Agent ids are time-ordered (CONTRACT.md §1) and agent-service keeps one live agent
 *   per name, so a newer agent proves every older one of that name was deleted: neither a late deletion of an older
 *   agent hides it, nor can a late upsert of an older agent replace it.
 */
@Injectable()
export class AgentsService {
  private readonly logger = new Logger(AgentsService.name);

  constructor(
    private readonly agents: AgentsStore,
    private readonly tests: AgentTestsStore,
    private readonly testRunsQueued: TestRunsQueued,
  ) {}

  async applyChange(event: AgentChangedEvent): Promise<AgentChangeOutcome> {
    const data = parseChange(event);
    const outcome = data.agent === null ? await this.tombstone(data) : await this.upsert(data, data.agent);
    this.logger.debug(`agent.changed ${event.id} (${data.agent_id} v${data.version}${data.agent ? '' : ' deleted'}): ${outcome}`);
    return outcome;
  }

  /** The tenant's live agent of that name, as the read model has it, or null. */
  async liveAgent(tenantId: string, name: string): Promise<AgentRecord | null> {
    const row = await this.agents.find(tenantId, name);
    return row && row.deletedAt === null ? row.record : null;
  }

  /** The agent that answers on a channel (CONTRACT.md §6), or null when the tenant has none. */
  async answeringAgent(tenantId: string, channelAgent: string | null, tx?: EntityManager): Promise<AgentRecord | null> {
    const oldest = await this.agents.oldestLive(tenantId, tx);
    const named = channelAgent === null || channelAgent === oldest?.name ? null : await this.agents.findLive(tenantId, channelAgent, tx);
    const live = [oldest, named].flatMap((a) => (a?.record ? [a.record] : []));
    return selectAgent(channelAgent, live);
  }

  private async upsert(data: AgentChangedData, agent: AgentRecord): Promise<AgentChangeOutcome> {
    await this.queueTestRun(data.tenant_id, agent);
    return (await this.agents.upsert(data.tenant_id, data.name, data.agent_id, data.version, agent)) ? 'applied' : 'ignored';
  }

  /**
   * Queues the run of the agent's test set against a version the model is about to take (CONTRACT.md §19), with the
   * version it replaces to compare with. Queued before the model takes it: a crash in between queues it again on
   * redelivery (once: a run per version), whereas after it the model would have the version and the run be lost.
   */
  private async queueTestRun(tenantId: string, agent: AgentRecord): Promise<void> {
    const current = await this.agents.find(tenantId, agent.name);
    const sameLiveAgent = current !== null && current.agentId === agent.id && current.deletedAt === null;
    const takes = current === null || (sameLiveAgent && agent.version > current.version) || agent.id > current.agentId;
    if (!takes) return;
    if (await this.tests.queueRun(tenantId, newId('run'), agent, sameLiveAgent ? current.record : null, `version:${agent.version}`)) this.testRunsQueued.notify();
  }

  /**
   * Records the deletion as a tombstone, also when the agent was never seen live here (its first announcement may
   * still arrive late, from agent-service's relay) or when the stored row is an older agent of that name.
   */
  private async tombstone(data: AgentChangedData): Promise<AgentChangeOutcome> {
    return (await this.agents.tombstone(data.tenant_id, data.name, data.agent_id, data.version)) ? 'applied' : 'ignored';
  }
}

/** Refuses a change the model cannot apply safely, so the transport dead-letters it instead of corrupting the model. */
function parseChange(event: AgentChangedEvent): AgentChangedData {
  const data: Partial<AgentChangedData> = event?.data ?? {};
  const { tenant_id: tenantId, name, agent_id: agentId, version, agent } = data;
  if (typeof tenantId !== 'string' || typeof name !== 'string' || typeof agentId !== 'string' || agentId === '' || agent === undefined) {
    throw new MalformedEventError('agent.changed', 'data.tenant_id, data.name, data.agent_id and data.agent are required');
  }
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new MalformedEventError('agent.changed', 'data.version must be a positive integer');
  }
  if (agent !== null) {
    const { id, name: agentName, version: agentVersion, created_at: createdAt } = agent as Partial<AgentRecord>;
    if (agentName !== name || id !== agentId || agentVersion !== version || typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) {
      throw new MalformedEventError('agent.changed', 'data.agent must be the record of data.agent_id at data.version, named like data.name');
    }
  }
  return { tenant_id: tenantId, name, agent_id: agentId, version, agent };
}
