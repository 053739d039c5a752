import { ProblemTypes, Topics, newId, type AgentGapOpenedEvent, type ContactDeletedData, type MessageInboundEvent, type MessageReceivedEvent, type RpcPattern, type RpcRequest } from '@parley/contracts';
import { EventPublisher, RpcProblemError, type TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/** Knowledge gaps (CONTRACT.md §19): customers' questions the agent could not answer, grouped, over real Kafka and PostgreSQL. */
describe('responder-service: knowledge gaps', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;
  let opened: TopicProbe<AgentGapOpenedEvent>;

  beforeAll(async () => {
    h = await ResponderHarness.start('gaps');
    out = await h.probeOutputs();
    opened = await h.kafka.probe<AgentGapOpenedEvent>(Topics.AgentGapOpened);
  });

  afterAll(async () => {
    await opened?.stop();
    await h?.close();
  });

  const call = <P extends RpcPattern>(pattern: P, request: RpcRequest<P>) => h.kafka.rpc.request(pattern, request);
  const problemStatus = async (promise: Promise<unknown>) => {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof RpcProblemError)) throw new Error(`expected a problem, got ${String(err)}`);
    return { status: err.problem.status, type: err.problem.type };
  };

  /** One customer message; resolves the `message.received` that answers it. */
  async function say(tenant: string, customer: string, text: string): Promise<MessageReceivedEvent> {
    const event: MessageInboundEvent = inboundEvent(tenant, { from: customer, to: BUSINESS, text });
    await h.deliverInbound(event);
    const got = await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
    return got.value;
  }

  const openedFor = (tenant: string) => opened.messages.filter((m) => m.value.tenant_id === tenant);

  it('groups two differently worded questions it could not answer in one gap, opens another for a new question, and announces each gap once', async () => {
    const tenant = newId('ten');
    await h.announceAgent(tenant, agentRecord('front-desk', { faqs: [{ question: 'What are your opening hours?', answer: 'We open at 9:00.' }] }));

    const parker = phoneNumber();
    const first = await say(tenant, parker, 'Where can I park my car?');
    expect(first.data.agent_response).toContain("I don't know");
    await say(tenant, phoneNumber(), 'Is there parking near you?');
    await say(tenant, phoneNumber(), 'Can I bring my dog?');
    // a question it answers is no gap
    await h.deliverInbound(inboundEvent(tenant, { from: phoneNumber(), to: BUSINESS, text: 'What are your opening hours?' }));

    const gaps = await pollUntil(
      async () => {
        const page = await call('gaps.list', { tenant_id: tenant, agent: 'front-desk', state: 'open', limit: 10, cursor: null });
        return page.data.length === 2 ? page.data : undefined;
      },
      { description: 'two open gaps' },
    );
    // the most recently asked first
    expect(gaps.map((g) => g.question)).toEqual(['Can I bring my dog?', 'Where can I park my car?']);
    const parking = gaps[1];
    expect(parking).toEqual({
      id: expect.stringMatching(/^gap_/),
      agent: 'front-desk',
      question: 'Where can I park my car?',
      examples: ['Where can I park my car?', 'Is there parking near you?'],
      count: 2,
      language: 'en',
      last_seen_at: expect.any(String),
      state: 'open',
      answer: null,
      created_at: expect.any(String),
    });
    expect(gaps[0]).toMatchObject({ examples: ['Can I bring my dog?'], count: 1 });

    const events = await pollUntil(() => (openedFor(tenant).length >= 2 ? openedFor(tenant) : undefined), { description: 'agent.gap_opened twice' });
    expect(events.map((e) => e.value.data.gap.id).sort()).toEqual(gaps.map((g) => g.id).sort());
    const parkingOpened = events.find((e) => e.value.data.gap.id === parking.id)!;
    expect(parkingOpened.key).toBe(`${tenant}:front-desk`);
    expect(parkingOpened.value.data).toMatchObject({
      event: 'agent.gap_opened',
      agent: 'front-desk',
      reason: 'not_known',
      customer: parker,
      conversation_id: expect.stringMatching(/^cnv_/),
      gap: { question: 'Where can I park my car?', count: 1 },
    });
    expectMatchesEventSchema(Topics.AgentGapOpened, parkingOpened.value);
    // the second parking question opened nothing
    expect(openedFor(tenant)).toHaveLength(2);
  });

  it('closes a gap with its answer (again with the same answer: the same gap), refuses to settle it otherwise, and hides it from other tenants', async () => {
    const tenant = newId('ten');
    await h.announceAgent(tenant, agentRecord('shop'));
    await say(tenant, phoneNumber(), 'Do you repair bikes?');
    const [gap] = (await pollUntil(async () => {
      const page = await call('gaps.list', { tenant_id: tenant, agent: 'shop', state: 'open', limit: 10, cursor: null });
      return page.data.length ? page.data : undefined;
    }, { description: 'a gap' }));

    expect(await problemStatus(call('gaps.get', { tenant_id: newId('ten'), agent: 'shop', id: gap.id }))).toEqual({ status: 404, type: ProblemTypes.notFound });
    expect(await problemStatus(call('gaps.get', { tenant_id: tenant, agent: 'other', id: gap.id }))).toEqual({ status: 404, type: ProblemTypes.notFound });
    expect(await problemStatus(call('gaps.list', { tenant_id: newId('ten'), agent: 'shop', state: 'open', limit: 10, cursor: null }))).toEqual({ status: 404, type: ProblemTypes.notFound });

    const closed = await call('gaps.close', { tenant_id: tenant, agent: 'shop', id: gap.id, answer: 'Yes, in two days.' });
    expect(closed).toMatchObject({ id: gap.id, state: 'closed', answer: 'Yes, in two days.' });
    expect(await call('gaps.close', { tenant_id: tenant, agent: 'shop', id: gap.id, answer: 'Yes, in two days.' })).toEqual(closed);
    expect(await problemStatus(call('gaps.close', { tenant_id: tenant, agent: 'shop', id: gap.id, answer: 'No.' }))).toMatchObject({ status: 409 });
    expect(await problemStatus(call('gaps.dismiss', { tenant_id: tenant, agent: 'shop', id: gap.id }))).toMatchObject({ status: 409 });
    expect((await call('gaps.list', { tenant_id: tenant, agent: 'shop', state: 'open', limit: 10, cursor: null })).data).toEqual([]);
    expect((await call('gaps.list', { tenant_id: tenant, agent: 'shop', state: 'closed', limit: 10, cursor: null })).data.map((g) => g.id)).toEqual([gap.id]);
  });

  it('a reply marked wrong counts its question in a gap with the reply given, once however often it is marked', async () => {
    const tenant = newId('ten');
    const customer = phoneNumber();
    await h.announceAgent(tenant, agentRecord('bakery', { faqs: [{ question: 'Do you deliver cakes?', answer: 'Yes, within 10 km.' }] }));
    const received = await say(tenant, customer, 'Do you deliver cakes?');
    expect(received.data.agent_response).toContain('Yes, within 10 km.');
    const [conversation]: { id: string }[] = await h.sql.query('SELECT id FROM conversations WHERE tenant_id = $1 AND customer = $2', [tenant, customer]);
    const replyId = received.data.reply_message_id!;
    const actor = { type: 'member' as const, id: 'usr_owner' };

    expect(await problemStatus(call('conversations.feedback', { tenant_id: tenant, id: conversation.id, message_id: received.data.message_id, verdict: 'wrong', note: null, actor }))).toMatchObject({
      status: 404,
    });
    const right = await call('conversations.feedback', { tenant_id: tenant, id: conversation.id, message_id: replyId, verdict: 'right', note: null, actor });
    expect(right).toMatchObject({ verdict: 'right', gap_id: null });
    expect((await call('gaps.list', { tenant_id: tenant, agent: 'bakery', state: 'open', limit: 10, cursor: null })).data).toEqual([]);

    const wrong = await call('conversations.feedback', { tenant_id: tenant, id: conversation.id, message_id: replyId, verdict: 'wrong', note: 'We stopped delivering in November', actor });
    expect(wrong).toMatchObject({ conversation_id: conversation.id, message_id: replyId, verdict: 'wrong', note: 'We stopped delivering in November', gap_id: expect.stringMatching(/^gap_/) });
    await call('conversations.feedback', { tenant_id: tenant, id: conversation.id, message_id: replyId, verdict: 'wrong', note: null, actor });
    const gaps = (await call('gaps.list', { tenant_id: tenant, agent: 'bakery', state: 'open', limit: 10, cursor: null })).data;
    expect(gaps).toEqual([expect.objectContaining({ id: wrong.gap_id, question: 'Do you deliver cakes?', count: 1 })]);
    const [occurrence]: { reason: string; reply: string }[] = await h.sql.query('SELECT reason, reply FROM knowledge_gap_occurrences WHERE tenant_id = $1 AND gap_id = $2', [tenant, wrong.gap_id]);
    expect(occurrence).toEqual({ reason: 'marked_wrong', reply: expect.stringContaining('Yes, within 10 km.') });
    const events = await pollUntil(() => (openedFor(tenant).length ? openedFor(tenant) : undefined), { description: 'agent.gap_opened of the marked reply' });
    expect(events.map((e) => e.value.data.reason)).toEqual(['marked_wrong']);
  });

  it("takes a deleted contact's questions out of the gaps: what only they asked goes, a shared gap counts them no more", async () => {
    const tenant = newId('ten');
    await h.announceAgent(tenant, agentRecord('front-desk'));
    const [erin, sam] = [phoneNumber(), phoneNumber()];
    await say(tenant, erin, 'Do you sell lilac wedding cakes?');
    await say(tenant, erin, 'Where can I park my car?');
    await say(tenant, sam, 'Is there parking near you?');
    const open = async () => (await call('gaps.list', { tenant_id: tenant, agent: 'front-desk', state: 'open', limit: 10, cursor: null })).data;
    await pollUntil(async () => ((await open()).length === 2 ? true : undefined), { description: 'two gaps' });

    const data: ContactDeletedData = { event: 'contact.deleted', tenant_id: tenant, contact_id: newId('ctc'), phone: erin, email: null, at: new Date().toISOString() };
    await h.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.ContactDeleted, tenant, data), `${tenant}:${data.contact_id}`);
    const left = await pollUntil(async () => {
      const gaps = await open();
      return gaps.length === 1 && gaps[0].count === 1 ? gaps : undefined;
    }, { description: "the erased contact's questions out of the gaps" });
    expect(left[0]).toMatchObject({ question: 'Is there parking near you?', examples: ['Is there parking near you?'] });
    const words: unknown[] = await h.sql.query(
      `SELECT 1 FROM knowledge_gap_wordings WHERE tenant_id = $1 AND (text ILIKE '%lilac%' OR text ILIKE '%park my car%')`,
      [tenant],
    );
    expect(words).toEqual([]);
  });
});
