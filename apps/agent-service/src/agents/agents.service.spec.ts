import type { EventEnvelope } from '@parley/contracts';
import type { EventPublisher } from '@parley/kafka';
import { ListCursors, ProblemException } from '@parley/service-kit';
import type { AnnouncementRelay } from '../announcements/announcement-relay';
import type { AgentEntity } from './agent.entity';
import type { AgentBody } from './agents.mapper';
import { AgentsService } from './agents.service';
import type { AgentsStore, Replaced } from './agents.store';

/** AgentsStore's contract in memory (its SQL is exercised against PostgreSQL by agents.integration-spec). */
class InMemoryAgents implements Pick<AgentsStore, 'findLive' | 'replace' | 'markDeleted' | 'markAnnounced' | 'unannounced'> {
  readonly rows: AgentEntity[] = [];
  private next = 0;

  async findLive(tenantId: string, name: string): Promise<AgentEntity | null> {
    return this.rows.find((a) => a.tenantId === tenantId && a.name === name && a.deletedAt === null) ?? null;
  }

  async replace(tenantId: string, body: AgentBody, unchanged: (live: AgentEntity) => boolean): Promise<Replaced> {
    const existing = await this.findLive(tenantId, body.name);
    if (existing && unchanged(existing)) return { created: false, changed: false, entity: existing };
    const entity = existing ?? ({ id: `agt_${++this.next}`, tenantId, version: 0, publishedVersion: 0, deletedAt: null, createdAt: new Date() } as AgentEntity);
    Object.assign(entity, body, { version: entity.version + 1, updatedAt: new Date() });
    if (!existing) this.rows.push(entity);
    return { created: !existing, changed: true, entity };
  }

  async markDeleted(tenantId: string, name: string): Promise<AgentEntity | null> {
    const agent = await this.findLive(tenantId, name);
    if (agent) agent.deletedAt = new Date();
    return agent;
  }

  async markAnnounced(agent: AgentEntity): Promise<void> {
    const row = this.rows.find((a) => a.id === agent.id && a.version === agent.version);
    if (!row) return;
    if (row.deletedAt) this.rows.splice(this.rows.indexOf(row), 1);
    else row.publishedVersion = row.version;
  }

  async unannounced(limit: number): Promise<AgentEntity[]> {
    return this.rows.filter((a) => a.publishedVersion < a.version || a.deletedAt !== null).slice(0, limit);
  }
}

function setup() {
  const store = new InMemoryAgents();
  const published: EventEnvelope[] = [];
  let brokerDown = false;
  const publisher = {
    publishEvent: async (envelope: EventEnvelope) => {
      if (brokerDown) throw new Error('broker down');
      published.push(envelope);
    },
  } as unknown as EventPublisher;
  const relay = { register: () => undefined, wake: () => undefined, retrySoon: jest.fn() } as unknown as AnnouncementRelay & { retrySoon: jest.Mock };
  const agents = new AgentsService(store as unknown as AgentsStore, publisher, new ListCursors('test-secret'), relay);
  return { store, published, relay, agents, setBrokerDown: (down: boolean) => (brokerDown = down) };
}

const body = (greeting: string) => ({ name: 'support', instruction: 'Answer questions.', greeting, skills: ['faq_responder'] });
const statusOf = (err: unknown) => (err instanceof ProblemException ? err.problem.status : undefined);

describe('AgentsService', () => {
  it('announces a new agent and each new version; the same body again keeps the version and announces nothing', async () => {
    const { agents, published } = setup();
    expect((await agents.upsert('ten_a', 'support', body('Hi!'))).created).toBe(true);
    expect((await agents.upsert('ten_a', 'support', body('Hi!'))).agent.version).toBe(1);
    expect((await agents.upsert('ten_a', 'support', body('Hello!'))).agent.version).toBe(2);
    expect(published.map((e) => (e.data as { version: number }).version)).toEqual([1, 2]);
  });

  it('refuses a body whose name is not the path name, naming the field', async () => {
    const { agents } = setup();
    const err = await agents.upsert('ten_a', 'sales', body('Hi!')).catch((e: unknown) => e);
    expect(statusOf(err)).toBe(400);
    expect((err as ProblemException).problem.errors).toEqual([expect.objectContaining({ field: 'name' })]);
  });

  it('a change the broker did not take is left to the relay, which announces it later and marks it announced', async () => {
    const { agents, store, published, relay, setBrokerDown } = setup();
    setBrokerDown(true);
    await agents.upsert('ten_a', 'support', body('Hi!'));
    expect(relay.retrySoon).toHaveBeenCalled();
    expect(store.rows[0].publishedVersion).toBe(0);
    setBrokerDown(false);
    expect(await agents.relayPending()).toBe(1);
    expect(published).toHaveLength(1);
    expect(store.rows[0].publishedVersion).toBe(1);
    expect(await agents.relayPending()).toBe(0);
  });

  it("a deleted agent is announced with no body and its row goes; another tenant's agent of that name is untouched", async () => {
    const { agents, store, published } = setup();
    await agents.upsert('ten_a', 'support', body('Hi!'));
    await agents.upsert('ten_b', 'support', body('Hi!'));
    expect(statusOf(await agents.delete('ten_c', 'support').catch((e: unknown) => e))).toBe(404);
    await agents.delete('ten_a', 'support');
    expect(published.at(-1)).toMatchObject({ tenant_id: 'ten_a', data: { name: 'support', agent: null } });
    expect(store.rows.map((a) => a.tenantId)).toEqual(['ten_b']);
    expect(statusOf(await agents.get('ten_a', 'support').catch((e: unknown) => e))).toBe(404);
  });
});
