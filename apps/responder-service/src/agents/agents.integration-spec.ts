import { Topics, type AgentChangedData, type AgentChangedEvent, type AgentRecord } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ResponderHarness, agentRecord } from '../test/responder-harness';
import { AgentsService } from './agents.service';

const T0 = Date.parse('2025-05-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function change(data: AgentChangedData, occurredAt: string): AgentChangedEvent {
  return { ...EventPublisher.envelope(Topics.AgentChanged, data.tenant_id, data), occurred_at: occurredAt };
}

function upsert(tenantId: string, agent: AgentRecord): AgentChangedEvent {
  return change({ tenant_id: tenantId, name: agent.name, agent }, agent.updated_at);
}

function deletion(tenantId: string, name: string, occurredAt: string): AgentChangedEvent {
  return change({ tenant_id: tenantId, name, agent: null }, occurredAt);
}

describe('responder-service: the agent read model', () => {
  let h: ResponderHarness;
  let agents: AgentsService;

  beforeAll(async () => {
    h = await ResponderHarness.start('responderagents');
    agents = h.app.get(AgentsService);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('follows agent.changed on Kafka: an upsert answers, a deletion silences', async () => {
    const tenant = 'ten_kafka';
    const agent = agentRecord('support');
    await h.announceAgent(tenant, agent);
    expect(await agents.answeringAgent(tenant, null)).toEqual(agent);
    await h.announceDeletion(tenant, 'support');
    expect(await agents.answeringAgent(tenant, null)).toBeNull();
  });

  it('applies only newer versions of an agent, so redelivery and late copies change nothing', async () => {
    const tenant = 'ten_versions';
    const v1 = agentRecord('support', { created_at: at(0), updated_at: at(0) });
    const v2 = { ...v1, greeting: 'Welcome back!', version: 2, updated_at: at(5) };

    expect(await agents.applyChange(upsert(tenant, v1))).toBe('applied');
    expect(await agents.applyChange(upsert(tenant, v2))).toBe('applied');
    expect(await agents.applyChange(upsert(tenant, v1))).toBe('ignored');
    expect(await agents.applyChange(upsert(tenant, v2))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, 'support')).toEqual(v2);
  });

  it('keeps a deleted agent deleted against replays, and lets a re-created agent of that name survive an old deletion', async () => {
    const tenant = 'ten_recreate';
    const old = agentRecord('support', { created_at: at(0), updated_at: at(0) });
    expect(await agents.applyChange(upsert(tenant, old))).toBe('applied');
    const oldDeletion = deletion(tenant, 'support', at(10));
    expect(await agents.applyChange(oldDeletion)).toBe('applied');
    expect(await agents.answeringAgent(tenant, null)).toBeNull();

    // A replay from an earlier offset (or a late re-announcement) of the deleted agent does not bring it back.
    expect(await agents.applyChange(upsert(tenant, old))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, null)).toBeNull();

    const recreated = agentRecord('support', { created_at: at(20), updated_at: at(20), greeting: 'New me' });
    expect(await agents.applyChange(upsert(tenant, recreated))).toBe('applied');
    expect(await agents.applyChange(oldDeletion)).toBe('ignored');
    expect(await agents.applyChange(upsert(tenant, old))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, null)).toEqual(recreated);
  });

  it('ignores a deletion of a name it never saw', async () => {
    expect(await agents.applyChange(deletion('ten_unknown', 'ghost', at(0)))).toBe('ignored');
  });

  it('keeps tenants apart', async () => {
    await agents.applyChange(upsert('ten_one', agentRecord('support')));
    expect(await agents.answeringAgent('ten_two', 'support')).toBeNull();
  });

  it('refuses a malformed change, so the transport dead-letters it instead of corrupting the model', async () => {
    const bad = change({ tenant_id: 'ten_bad', name: 'a', agent: agentRecord('b') }, at(0));
    await expect(agents.applyChange(bad)).rejects.toThrow(/malformed agent.changed/);
  });
});
