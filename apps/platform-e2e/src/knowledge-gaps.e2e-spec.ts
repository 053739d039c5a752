import type { components } from '@parley/api-client';
import { pollUntil } from '@parley/testing';
import { randomInt } from 'node:crypto';
import { signUp as signUpTenant } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// The agent improvement loop's first half (CONTRACT.md §19) over the public API: what the agent could not answer
// becomes a knowledge gap, near-duplicates grouped, announced once; the owner answers it once and the agent answers
// every wording of it from then on; a reply marked wrong becomes a gap too.

type Gap = components['schemas']['KnowledgeGap'];

const AGENT: components['schemas']['UpsertAgentBody'] = {
  name: 'front-desk',
  instruction: 'You are the front desk of Harbour Climbing, a bouldering gym.',
  greeting: '',
  skills: ['faq_responder'],
  faqs: [{ question: 'What are your opening hours?', answer: 'We are open 10:00 to 22:00 every day.' }],
};
const PARKING_ANSWER = 'Park free in the yard behind the gym; the gate code is at the desk.';

describe('knowledge gaps: what the agent could not answer, answered once by the owner', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await sharedPlatform();
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  const signUp = (name: string) => signUpTenant(platform.gateway, name);

  const customer = () => `+4475${randomInt(10_000_000, 99_999_999)}`;

  it('groups two wordings of one question in a gap, announces it once, and answers both once the owner answers it', async () => {
    const { token, api } = await signUp('Harbour Climbing');
    expect((await api.PUT('/api/v1/agents/{agent_name}', { params: { path: { agent_name: 'front-desk' } }, body: AGENT })).response.status).toBe(201);
    const webhook = await api.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['agent.gap_opened'] } });
    expect(webhook.response.status).toBe(201);
    const channel = (await api.GET('/api/v1/channels')).data!.data.find((c) => c.provider === 'sandbox')!;

    const asked = [customer(), customer()];
    for (const [i, text] of ['Where can I park my car?', 'Is there parking near you?'].entries()) {
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: asked[i], to: channel.phone_number, text } })).status).toBe(200);
    }

    const gapsPath = { params: { path: { agent_name: 'front-desk' } } };
    const gap = await pollUntil<Gap>(async () => (await api.GET('/api/v1/agents/{agent_name}/gaps', gapsPath)).data?.data.find((g) => g.count === 2), {
      timeoutMs: 60_000,
      description: 'one gap holding both parking questions',
    });
    expect(gap).toMatchObject({ question: 'Where can I park my car?', examples: ['Where can I park my car?', 'Is there parking near you?'], language: 'en', state: 'open' });
    const announced = () => receiver.received.filter((d) => (JSON.parse(d.body) as { event?: string }).event === 'agent.gap_opened');
    await pollUntil(() => announced().length > 0, { timeoutMs: 30_000, description: 'agent.gap_opened at the webhook' });
    expect(JSON.parse(announced()[0].body)).toMatchObject({ event: 'agent.gap_opened', agent: 'front-desk', gap: { id: gap.id }, reason: 'not_known' });

    // Bad input is named; another tenant does not see the gap.
    const answerUrl = `${platform.gateway}/api/v1/agents/front-desk/gaps/${gap.id}/answer`;
    const empty = await http<{ errors: { field: string }[] }>('POST', answerUrl, { token, json: { answer: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e) => e.field)).toEqual(['answer']);
    const stranger = await signUp('Someone Else');
    expect((await http('POST', answerUrl, { token: stranger.token, json: { answer: PARKING_ANSWER } })).status).toBe(404);

    const answered = await http<Gap>('POST', answerUrl, { token, json: { answer: PARKING_ANSWER } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: gap.id, state: 'closed', answer: PARKING_ANSWER });
    const agent = (await api.GET('/api/v1/agents/{agent_name}', gapsPath)).data!;
    expect(agent.version).toBe(2);
    expect(agent.faqs.map((f) => f.question)).toEqual(['What are your opening hours?', 'Where can I park my car?', 'Is there parking near you?']);
    // a retry of the same answer is the same closed gap, and no new version
    expect((await http('POST', answerUrl, { token, json: { answer: PARKING_ANSWER } })).status).toBe(200);
    expect((await api.GET('/api/v1/agents/{agent_name}', gapsPath)).data!.version).toBe(2);

    // Both wordings are answered now (the agent's read model follows agent.changed).
    for (const message of ['Where can I park my car?', 'Is there parking near you?']) {
      await pollUntil(
        async () => (await api.POST('/api/v1/agents/{agent_name}/test', { ...gapsPath, body: { message } })).data?.reply.includes(PARKING_ANSWER),
        { timeoutMs: 30_000, description: `the agent answering "${message}"` },
      );
    }
    expect((await api.GET('/api/v1/agents/{agent_name}/gaps', gapsPath)).data!.data.map((g) => g.id)).not.toContain(gap.id);
    expect(announced()).toHaveLength(1);
  });

  it('a reply marked wrong in the inbox becomes a gap with that reply', async () => {
    const { token, api } = await signUp('Harbour Climbing Two');
    expect((await api.PUT('/api/v1/agents/{agent_name}', { params: { path: { agent_name: 'front-desk' } }, body: AGENT })).response.status).toBe(201);
    const channel = (await api.GET('/api/v1/channels')).data!.data.find((c) => c.provider === 'sandbox')!;
    const from = customer();
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from, to: channel.phone_number, text: 'What are your opening hours?' } })).status).toBe(200);

    const conversation = await pollUntil(
      async () => {
        const list = (await api.GET('/api/v1/conversations')).data?.data.find((c) => c.customer === from);
        if (!list) return undefined;
        const thread = (await api.GET('/api/v1/conversations/{id}', { params: { path: { id: list.id } } })).data;
        return thread?.messages.some((m) => m.author.type === 'agent') ? thread : undefined;
      },
      { timeoutMs: 60_000, description: "the agent's reply in the inbox" },
    );
    const reply = conversation.messages.find((m) => m.author.type === 'agent')!;
    const feedbackUrl = `${platform.gateway}/api/v1/conversations/${conversation.id}/messages/${reply.message_id}/feedback`;
    const bad = await http<{ errors: { field: string }[] }>('POST', feedbackUrl, { token, json: { verdict: 'meh' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field)).toEqual(['verdict']);

    const marked = await http<{ gap_id: string | null }>('POST', feedbackUrl, { token, json: { verdict: 'wrong', note: 'We close at 21:00 on Sundays' } });
    expect(marked.status).toBe(200);
    expect(marked.body.gap_id).toMatch(/^gap_/);
    const gaps = (await api.GET('/api/v1/agents/{agent_name}/gaps', { params: { path: { agent_name: 'front-desk' } } })).data!.data;
    expect(gaps).toEqual([expect.objectContaining({ id: marked.body.gap_id, question: 'What are your opening hours?', count: 1 })]);
  });
});
