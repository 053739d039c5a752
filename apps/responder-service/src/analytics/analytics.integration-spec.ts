import { newId, type MessageInboundEvent } from '@parley/contracts';
import { RpcProblemError } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { BUSINESS, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/** An agent's analytics (CONTRACT.md §19), from what its replies did, over real Kafka and PostgreSQL. */
describe('responder-service: agent analytics', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;

  beforeAll(async () => {
    h = await ResponderHarness.start('analytics');
    out = await h.probeOutputs();
  });

  afterAll(async () => {
    await h?.close();
  });

  async function say(tenant: string, customer: string, text: string): Promise<void> {
    const event: MessageInboundEvent = inboundEvent(tenant, { from: customer, to: BUSINESS, text });
    await h.deliverInbound(event);
    await pollUntil(() => out.received.messages.find((m) => m.value.data.message_id === event.data.message_id), { description: `message.received of "${text}"` });
  }

  it('counts replies per day and language by what they did, and names the knowledge used most and never', async () => {
    const tenant = newId('ten');
    await h.announceAgent(
      tenant,
      agentRecord('front-desk', {
        faqs: [
          { question: 'What are your opening hours?', answer: 'We open at 9:00.' },
          { question: '¿Cuánto cuesta la entrada?', answer: 'La entrada cuesta 12 euros.' },
          { question: 'Do you rent shoes?', answer: 'Yes, 4 euros a pair.' },
        ],
      }),
    );
    await say(tenant, phoneNumber(), 'What are your opening hours?');
    await say(tenant, phoneNumber(), 'when do you open?');
    await say(tenant, phoneNumber(), '¿Cuánto cuesta la entrada?');
    await say(tenant, phoneNumber(), 'Can I bring my dog?');
    await say(tenant, phoneNumber(), 'I want to talk to a person');

    const today = new Date().toISOString().slice(0, 10);
    const analytics = await h.kafka.rpc.request('analytics.agent', { tenant_id: tenant, agent: 'front-desk', from: null, to: null, tz: 'UTC' });
    expect(analytics).toMatchObject({ agent: 'front-desk', to: today, tz: 'UTC' });
    expect(analytics.data).toEqual([
      { day: today, language: 'en', questions: 4, answered: 2, not_known: 1, handed_off: 1, bookings: 0, leads: 0 },
      { day: today, language: 'es', questions: 1, answered: 1, not_known: 0, handed_off: 0, bookings: 0, leads: 0 },
    ]);
    expect(analytics.sources.most_used).toEqual([
      { type: 'faq', id: 'faq-1', title: 'What are your opening hours?', count: 2 },
      { type: 'faq', id: 'faq-2', title: '¿Cuánto cuesta la entrada?', count: 1 },
    ]);
    expect(analytics.sources.never_used).toEqual([{ type: 'faq', id: 'faq-3', title: 'Do you rent shoes?' }]);

    // a range before any reply is empty; another tenant's agent is not found; a zone it cannot read is named
    const before = await h.kafka.rpc.request('analytics.agent', { tenant_id: tenant, agent: 'front-desk', from: '2026-01-01', to: '2026-01-31', tz: 'Europe/Madrid' });
    expect(before.data).toEqual([]);
    const problem = async (request: Parameters<typeof h.kafka.rpc.request<'analytics.agent'>>[1]) => {
      const err = await h.kafka.rpc.request('analytics.agent', request).then(
        () => null,
        (e: unknown) => e,
      );
      if (!(err instanceof RpcProblemError)) throw new Error(`expected a problem, got ${String(err)}`);
      return { status: err.problem.status, fields: (err.problem.errors ?? []).map((e) => e.field) };
    };
    expect(await problem({ tenant_id: newId('ten'), agent: 'front-desk', from: null, to: null, tz: null })).toEqual({ status: 404, fields: [] });
    expect(await problem({ tenant_id: tenant, agent: 'front-desk', from: null, to: null, tz: 'Nowhere/Land' })).toEqual({ status: 400, fields: ['tz'] });
  });
});
