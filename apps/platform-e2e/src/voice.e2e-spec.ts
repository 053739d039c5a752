import type { MessageReceivedData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { Webhook } from 'standardwebhooks';
import { signUp } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

// Voice end to end (CONTRACT §17, issue 24): the built services, and the sandbox playing a caller on the Twilio Voice
// wire (signed webhooks, TwiML acted on as a phone would), over public HTTP on real Kafka, PostgreSQL and Redis.

const AGENT = {
  name: 'support',
  instruction: 'You are the assistant of Acme Bakery. Answer questions about opening hours, orders and visits.',
  greeting: 'Hello from Acme Bakery!',
  skills: ['faq_responder'],
};

interface CallLine {
  who: 'agent' | 'caller' | 'system';
  text: string;
}

interface SandboxCall {
  sid: string;
  status: string;
  dialled: string | null;
  transcript: CallLine[];
  webhook_statuses: number[];
}

interface UsageDay {
  day: string;
  channel: string;
  category: string;
  quantity: number;
}

const TIMEOUT = { timeoutMs: 45_000, intervalMs: 250 };
const GREETING = 'Thanks for calling Acme Bakery. How can I help?';
/** What the voice channel says while the reply is on its way (a filler before a redirect). */
const FILLER = 'One moment, please.';

/** A fictional 555-01xx number (valid E.164). */
const number = (lastTwo: string) => `+141555502${lastTwo}`;

describe('Voice end to end: a caller speaks to the agent, is heard in the webhooks and conversation, and is metered', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;
  let token: string;
  let secret: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await sharedPlatform();
    ({ token } = await signUp(platform.gateway, 'Acme Bakery'));
    expect((await call('PUT', '/api/v1/agents/support', AGENT)).status).toBe(201);
    const webhook = await call<{ secret: string }>('POST', '/api/v1/webhooks', { url: receiver.url });
    expect(webhook.status).toBe(201);
    secret = webhook.body.secret;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  }, 60_000);

  function call<T = unknown>(method: string, path: string, json?: unknown) {
    return http<T>(method, `${platform.gateway}${path}`, { token, json });
  }

  function sandbox<T>(path: string, json?: unknown) {
    return http<T>(json === undefined ? 'GET' : 'POST', `${platform.sandbox}${path}`, json === undefined ? {} : { json });
  }

  /** The tenant's signed `message.received` deliveries matching `match` (each signature verified). */
  function received(match: (data: MessageReceivedData) => boolean): MessageReceivedData[] {
    const verifier = new Webhook(secret);
    return receiver.received
      .map((d: ReceivedWebhook) => ({ d, data: JSON.parse(d.body) as MessageReceivedData }))
      .filter(({ data }) => data.event === 'message.received' && match(data))
      .map(({ d, data }) => {
        verifier.verify(d.body, Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)])));
        return data;
      });
  }

  /** What the caller heard from the agent after their last sentence, fillers left out. */
  function heardAfter(transcript: CallLine[], said: string): string[] {
    const from = transcript.map((l) => l.who === 'caller' && l.text).lastIndexOf(said);
    return transcript.slice(from + 1).filter((l) => l.who === 'agent' && l.text !== FILLER).map((l) => l.text);
  }

  it('answers a call with the greeting, speaks the agent’s replies, continues one conversation, meters the minutes', async () => {
    const business = number('01');
    const caller = number('02');
    const connected = await call<{ id: string; channel: string; provider: string; phone_number: string }>('POST', '/api/v1/channels/voice', {
      provider: 'sandbox',
      phone_number: business,
      greeting: GREETING,
      language: 'en-US',
    });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({ id: expect.stringMatching(/^chn_/), channel: 'voice', provider: 'sandbox', phone_number: business });
    expect(connected.text).not.toMatch(/auth_token|account_sid/);
    const missing = await call<{ errors: { field: string }[] }>('POST', '/api/v1/channels/voice', { provider: 'twilio', phone_number: business, forward_to: 'nobody' });
    expect(missing.status).toBe(400);
    expect([...new Set(missing.body.errors.map((e) => e.field))].sort()).toEqual(['account_sid', 'auth_token', 'forward_to']);
    expect((await call('POST', '/api/v1/channels/voice', { provider: 'sandbox', phone_number: business })).status).toBe(409);

    // The call is answered with the greeting, and the phone waits at a speech Gather.
    const placed = await sandbox<SandboxCall>('/_sandbox/voice/call', { from: caller, to: business });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'in-progress', webhook_statuses: [200], transcript: [{ who: 'agent', text: GREETING }] });
    const sid = placed.body.sid;

    // The caller asks; what they hear back is the agent's reply to exactly that message.
    const question = 'Hi, what are your opening hours?';
    const answered = await sandbox<SandboxCall>('/_sandbox/voice/say', { call_sid: sid, text: question });
    expect(answered.status).toBe(200);
    expect(answered.body.webhook_statuses.every((s) => s === 200)).toBe(true);
    const [first] = await pollUntil(() => {
      const found = received((d) => d.from === caller);
      return found.length > 0 && found;
    }, { ...TIMEOUT, description: 'message.received of the utterance' });
    expect(first).toMatchObject({ channel: 'voice', from: caller, message: question, agent: 'support', agent_response: expect.any(String), type: 'text' });
    expect(heardAfter(answered.body.transcript, question)).toEqual([first.agent_response]);
    // the caller was greeted at pick-up: the first answer does not greet again
    expect(first.agent_response).not.toContain(AGENT.greeting);
    expect(answered.body.status).toBe('in-progress');

    // A later sentence on the same call continues the same conversation and contact.
    const followUp = 'And are you open on Sundays?';
    const second = await sandbox<SandboxCall>('/_sandbox/voice/say', { call_sid: sid, text: followUp });
    expect(second.status).toBe(200);
    const [again] = await pollUntil(() => {
      const found = received((d) => d.from === caller && d.message === followUp);
      return found.length > 0 && found;
    }, { ...TIMEOUT, description: 'message.received of the second utterance' });
    expect(again).toMatchObject({ channel: 'voice', agent_response: expect.any(String) });
    expect(heardAfter(second.body.transcript, followUp)).toEqual([again.agent_response]);
    const conversations = await call<{ data: { channel_id: string; customer: string }[] }>('GET', '/api/v1/conversations');
    expect(conversations.body.data.filter((c) => c.customer === caller)).toEqual([expect.objectContaining({ channel_id: connected.body.id })]);
    const contacts = await pollUntil(async () => {
      const page = await call<{ data: { id: string; phone: string }[] }>('GET', `/api/v1/contacts?q=${encodeURIComponent(caller.slice(1))}`);
      return page.body.data.length > 0 && page.body.data;
    }, { ...TIMEOUT, description: 'the caller as a contact' });
    expect(contacts).toEqual([expect.objectContaining({ phone: caller })]);

    // Hanging up after 61 s (2 started minutes): metered as voice minutes once, however often Twilio reports it.
    const hungUp = await sandbox<SandboxCall>('/_sandbox/voice/hangup', { call_sid: sid, duration_seconds: 61 });
    expect(hungUp.body).toMatchObject({ status: 'completed', webhook_statuses: [200] });
    const minutes = await pollUntil(async () => {
      const usage = await call<{ data: UsageDay[] }>('GET', '/api/v1/billing/usage');
      const row = usage.body.data.find((u) => u.channel === 'voice' && u.category === 'voice_minute');
      return row && row.quantity;
    }, { ...TIMEOUT, description: 'voice_minute usage' });
    expect(minutes).toBe(2);
    const messages = await call<{ data: { channel: string; direction: string; message: string }[] }>('GET', `/api/v1/messages?from=${encodeURIComponent(caller)}`);
    expect(messages.body.data.filter((m) => m.direction === 'inbound').map((m) => [m.channel, m.message]).sort()).toEqual([['voice', followUp], ['voice', question]].sort());

    // The hang-up ended the conversation: calling again starts a new one, with the same contact.
    const ofCaller = async () => (await call<{ data: { id: string; state: string; customer: string }[] }>('GET', '/api/v1/conversations')).body.data.filter((c) => c.customer === caller);
    const [closed] = await pollUntil(async () => {
      const list = await ofCaller();
      return list.length === 1 && list[0].state === 'closed' && list;
    }, { ...TIMEOUT, description: 'the conversation closed by the hang-up' });
    const redial = await sandbox<SandboxCall>('/_sandbox/voice/call', { from: caller, to: business });
    const back = 'Hello again, it is me.';
    expect((await sandbox<SandboxCall>('/_sandbox/voice/say', { call_sid: redial.body.sid, text: back })).status).toBe(200);
    await pollUntil(() => received((d) => d.from === caller && d.message === back).length > 0, { ...TIMEOUT, description: 'message.received of the second call' });
    const both = await pollUntil(async () => {
      const list = await ofCaller();
      return list.length === 2 && list;
    }, { ...TIMEOUT, description: 'a second conversation' });
    expect(both.find((c) => c.id !== closed.id)).toMatchObject({ state: 'active' });
    const stillOne = await call<{ data: { id: string }[] }>('GET', `/api/v1/contacts?q=${encodeURIComponent(caller.slice(1))}`);
    expect(stillOne.body.data.map((c) => c.id)).toEqual(contacts.map((c) => c.id));
  }, 240_000);

  it('greets with the agent’s greeting when the channel has none, and dials forward_to when the caller asks for a person', async () => {
    const business = number('21');
    const caller = number('22');
    const person = number('29');
    expect((await call('POST', '/api/v1/channels/voice', { provider: 'sandbox', phone_number: business, forward_to: person })).status).toBe(201);
    const placed = await sandbox<SandboxCall>('/_sandbox/voice/call', { from: caller, to: business });
    expect(placed.body.transcript).toEqual([{ who: 'agent', text: AGENT.greeting }]);
    const asked = await sandbox<SandboxCall>('/_sandbox/voice/say', { call_sid: placed.body.sid, text: 'Can I talk to a real person, please?' });
    // The handoff reaches the call beside the agent's answer: when it came second, the call is forwarded on the next turn.
    const forwarded = asked.body.dialled ? asked.body : (await sandbox<SandboxCall>('/_sandbox/voice/say', { call_sid: placed.body.sid, text: 'Hello?' })).body;
    expect(forwarded).toMatchObject({ dialled: person, status: 'in-progress' });
    const [handoff] = await pollUntil(() => {
      const found = received((d) => d.from === caller);
      return found.length > 0 && found;
    }, { ...TIMEOUT, description: 'message.received of the request for a person' });
    expect(handoff).toMatchObject({ channel: 'voice', message: 'Can I talk to a real person, please?', agent_response: "Of course. I'm putting you through to a member of our team now." });
  }, 120_000);

  it('refuses a call whose X-Twilio-Signature is forged or missing with 401, before anything is heard', async () => {
    const business = number('11');
    const caller = number('12');
    expect((await call('POST', '/api/v1/channels/voice', { provider: 'sandbox', phone_number: business })).status).toBe(201);
    const forged = await sandbox<SandboxCall>('/_sandbox/voice/call', { from: caller, to: business, forge_with_token: 'not-the-auth-token' });
    expect(forged.body).toMatchObject({ status: 'failed', webhook_statuses: [401], transcript: [] });
    const unsigned = await fetch(`${platform.gateway}/webhooks/twilio/voice`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ CallSid: `CA${'0'.repeat(32)}`, From: caller, To: business, CallStatus: 'ringing' }).toString(),
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get('content-type')).toContain('application/problem+json');
  }, 60_000);
});
