import { Topics, newId, type AgentChangedData, type AgentChangedEvent, type AgentRecord } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { ResponderHarness, agentDeletion, agentRecord } from '../test/responder-harness';
import { AgentsService } from './agents.service';

const T0 = Date.parse('2025-05-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function change(data: AgentChangedData): AgentChangedEvent {
  return EventPublisher.envelope(Topics.AgentChanged, data.tenant_id, data);
}

function upsert(tenantId: string, agent: AgentRecord): AgentChangedEvent {
  return change({ tenant_id: tenantId, name: agent.name, agent_id: agent.id, version: agent.version, agent });
}

function deletion(tenantId: string, agent: AgentRecord): AgentChangedEvent {
  return change(agentDeletion(tenantId, agent));
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
    await h.announceDeletion(tenant, agent);
    expect(await agents.answeringAgent(tenant, null)).toBeNull();
  });

  it('keeps answering with agent B when the deletion of agent A of the same name arrives after B was created', async () => {
    const tenant = 'ten_late_delete';
    const a = agentRecord('support', { id: 'agt_1', created_at: at(0), updated_at: at(0) });
    const b = agentRecord('support', { id: 'agt_2', created_at: at(10), updated_at: at(10), greeting: 'I am B' });
    await h.announceAgent(tenant, a);
    await h.announceAgent(tenant, b);

    await h.publishAgentChange(agentDeletion(tenant, a));
    // B's next change travels on the same key, so the consumer has handled A's deletion before it shows.
    const b2 = { ...b, version: 2, greeting: 'Still B', updated_at: at(20) };
    await h.announceAgent(tenant, b2);

    expect(await agents.answeringAgent(tenant, null)).toEqual(b2);
    expect(await agents.answeringAgent(tenant, 'support')).toEqual(b2);
    expect(await agents.applyChange(deletion(tenant, a))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, 'support')).toEqual(b2);
  });

  it('applies only newer versions of an agent, so redelivery and late copies change nothing', async () => {
    const tenant = 'ten_versions';
    const v1 = agentRecord('support', { created_at: at(0), updated_at: at(0) });
    const v2 = { ...v1, greeting: 'Welcome back!', version: 2, updated_at: at(5) };

    expect(await agents.applyChange(upsert(tenant, v1))).toBe('applied');
    expect(await agents.applyChange(upsert(tenant, v2))).toBe('applied');
    expect(await agents.applyChange(upsert(tenant, v1))).toBe('ignored');
    expect(await agents.applyChange(upsert(tenant, v2))).toBe('ignored');
    // A deletion carries the agent's last version, so one older than the stored version is a stale copy.
    expect(await agents.applyChange(deletion(tenant, v1))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, 'support')).toEqual(v2);

    expect(await agents.applyChange(deletion(tenant, v2))).toBe('applied');
    expect(await agents.applyChange(deletion(tenant, v2))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, 'support')).toBeNull();
  });

  it('keeps a deleted agent deleted against replays, and lets a re-created agent of that name survive the old deletion', async () => {
    const tenant = 'ten_recreate';
    const [oldId, recreatedId] = orderedAgentIds();
    const old = agentRecord('support', { id: oldId, created_at: at(0), updated_at: at(0) });
    expect(await agents.applyChange(upsert(tenant, old))).toBe('applied');
    expect(await agents.applyChange(deletion(tenant, old))).toBe('applied');
    expect(await agents.answeringAgent(tenant, null)).toBeNull();

    // A replay from an earlier offset (or a late re-announcement) of the deleted agent does not bring it back.
    expect(await agents.applyChange(upsert(tenant, old))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, null)).toBeNull();

    const recreated = agentRecord('support', { id: recreatedId, created_at: at(20), updated_at: at(20), greeting: 'New me' });
    expect(await agents.applyChange(upsert(tenant, recreated))).toBe('applied');
    expect(await agents.applyChange(deletion(tenant, old))).toBe('ignored');
    expect(await agents.applyChange(upsert(tenant, old))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, null)).toEqual(recreated);
  });

  it('tombstones a deleted agent it never saw live, so its late first announcement does not bring it back', async () => {
    const tenant = 'ten_unseen';
    const unseen = agentRecord('ghost', { created_at: at(0), updated_at: at(0) });
    expect(await agents.applyChange(deletion(tenant, unseen))).toBe('applied');
    expect(await agents.applyChange(upsert(tenant, unseen))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, null)).toBeNull();

    // The deletion of a newer agent also proves an older stored agent of that name gone.
    const [olderId, newerId] = orderedAgentIds();
    const older = agentRecord('support', { id: olderId, created_at: at(0), updated_at: at(0) });
    const newer = agentRecord('support', { id: newerId, created_at: at(10), updated_at: at(10) });
    expect(await agents.applyChange(upsert(tenant, older))).toBe('applied');
    expect(await agents.applyChange(deletion(tenant, newer))).toBe('applied');
    expect(await agents.applyChange(upsert(tenant, newer))).toBe('ignored');
    expect(await agents.applyChange(upsert(tenant, older))).toBe('ignored');
    expect(await agents.answeringAgent(tenant, 'support')).toBeNull();
  });

  it('keeps tenants apart', async () => {
    await agents.applyChange(upsert('ten_one', agentRecord('support')));
    expect(await agents.answeringAgent('ten_two', 'support')).toBeNull();
  });

  it('refuses a malformed change, so the transport dead-letters it instead of corrupting the model', async () => {
    const agent = agentRecord('a');
    const valid = { tenant_id: 'ten_bad', name: 'a', agent_id: agent.id, version: 1, agent };
    const malformed: unknown[] = [
      { ...valid, name: 'b' },
      { ...valid, agent_id: 'agt_other' },
      { ...valid, version: 2 },
      { ...valid, agent_id: undefined },
      { ...valid, version: undefined, agent: null },
      { ...valid, version: 0, agent: null },
    ];
    for (const data of malformed) {
      await expect(agents.applyChange(change(data as AgentChangedData))).rejects.toThrow(/malformed agent.changed/);
    }
    expect(await agents.answeringAgent('ten_bad', null)).toBeNull();
  });
});

/** Two agent ids, the second newer: ids made in the same millisecond are not ordered by creation on their own. */
function orderedAgentIds(): [string, string] {
  const [a, b] = [newId('agt'), newId('agt')].sort();
  return [a, b];
}
