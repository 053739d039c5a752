import { Topics, newId, type AgentGapOpenedEvent, type MessageInboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';
import { GapWorker } from './gap.worker';

/** The gaps worker (GapWorker) over real PostgreSQL and Kafka: what a reply queued is grouped once, or not at all when its contact is erased first. */
describe('responder-service: the knowledge gaps worker', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let opened: TopicProbe<AgentGapOpenedEvent>;

  beforeAll(async () => {
    h = await ResponderHarness.start('gap-worker');
    out = await h.probeOutputs();
    opened = await h.kafka.probe<AgentGapOpenedEvent>(Topics.AgentGapOpened);
  });

  afterAll(async () => {
    await opened?.stop();
    await h?.close();
  });

  /** A conversation of a new customer with the tenant's agent (it greets them). */
  async function conversation(tenant: string): Promise<{ id: string; customer: string }> {
    const customer = phoneNumber();
    const event: MessageInboundEvent = inboundEvent(tenant, { from: customer, to: BUSINESS, text: 'Hello' });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: 'the greeting' });
    const [row]: { id: string }[] = await h.sql.query('SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2', [tenant, customer]);
    return { id: row.id, customer };
  }

  /** A question queued as a reply queues it, by a reply whose instance then died before its worker ran (nothing wakes the worker). */
  async function queue(tenant: string, c: { id: string; customer: string }, question: string, messageId = newId('msg')): Promise<string> {
    await h.sql.query(
      `INSERT INTO knowledge_gap_pending (tenant_id, message_id, agent_name, conversation_id, question, language, customer, reason, reply, at)
       VALUES ($1, $2, 'front-desk', $3, $4, 'en', $5, 'not_known', 'I do not know.', now())`,
      [tenant, messageId, c.id, question, c.customer],
    );
    return messageId;
  }

  const gapsOf = async (tenant: string) => (await h.kafka.rpc.request('gaps.list', { tenant_id: tenant, agent: 'front-desk', state: 'open', limit: 10, cursor: null })).data;

  it('groups a queued question no wake-up announced (its sweep finds it), once, and announces its gap once', async () => {
    const tenant = newId('ten');
    await h.announceAgent(tenant, agentRecord('front-desk'));
    const c = await conversation(tenant);
    const messageId = await queue(tenant, c, 'Do you have lockers?');
    const [gap] = await pollUntil(async () => {
      const gaps = await gapsOf(tenant);
      return gaps.length ? gaps : undefined;
    }, { description: 'the swept question in a gap', timeoutMs: 15_000 });
    expect(gap).toMatchObject({ question: 'Do you have lockers?', count: 1 });
    const occurrences: { gap_id: string }[] = await h.sql.query('SELECT gap_id FROM knowledge_gap_occurrences WHERE tenant_id = $1 AND message_id = $2', [tenant, messageId]);
    expect(occurrences).toEqual([{ gap_id: gap.id }]);
    expect(await h.sql.query('SELECT 1 FROM knowledge_gap_pending WHERE tenant_id = $1', [tenant])).toEqual([]);
    await pollUntil(() => opened.messages.some((m) => m.value.tenant_id === tenant) || undefined, { description: 'agent.gap_opened' });

    // queued again (a reply retried by hand, say): it counts no more
    await queue(tenant, c, 'Do you have lockers?', messageId);
    await h.app.get(GapWorker).placeBatch();
    expect(await h.sql.query('SELECT 1 FROM knowledge_gap_pending WHERE tenant_id = $1', [tenant])).toEqual([]);
    expect(await gapsOf(tenant)).toEqual([expect.objectContaining({ id: gap.id, count: 1 })]);
    expect(opened.messages.filter((m) => m.value.tenant_id === tenant)).toHaveLength(1);
  });

  it("skips a question while its conversation is being erased, and the erasure takes it: it counts nowhere", async () => {
    const tenant = newId('ten');
    await h.announceAgent(tenant, agentRecord('front-desk'));
    const c = await conversation(tenant);
    const erasure = h.sql.createQueryRunner();
    await erasure.connect();
    try {
      // queued by the reply (the worker's sweep is seconds away), then the erasure begins: the contact's conversations locked
      await queue(tenant, c, 'Do you sell lilac wedding cakes?');
      await erasure.startTransaction();
      await erasure.query('SELECT id FROM conversations WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant, c.id]);
      expect(await h.app.get(GapWorker).placeBatch()).toBe(0);
      expect(await h.sql.query('SELECT 1 FROM knowledge_gap_pending WHERE tenant_id = $1', [tenant])).toHaveLength(1);
      await erasure.query('DELETE FROM conversations WHERE tenant_id = $1 AND id = $2', [tenant, c.id]);
      await erasure.commitTransaction();
    } finally {
      await erasure.release();
    }
    expect(await h.sql.query('SELECT 1 FROM knowledge_gap_pending WHERE tenant_id = $1', [tenant])).toEqual([]);
    await h.app.get(GapWorker).placeBatch();
    expect(await gapsOf(tenant)).toEqual([]);
  });
});
