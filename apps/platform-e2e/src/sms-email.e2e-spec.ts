import type { MessageReceivedData, MessageStatusData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signUp } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

// SMS and email end to end (CONTRACT §17, issue 24): the built services, the sandbox playing Twilio (Messages API,
// signed status callbacks and inbound webhooks) and both ends of SMTP (the sandbox's sink; messaging-service's
// listener), all over public HTTP and real SMTP, on real Kafka and PostgreSQL. One platform for the file.

const AGENT = {
  name: 'support',
  instruction: 'You are the assistant of Acme Bakery. Answer questions about opening hours, orders and visits.',
  greeting: 'Hello from Acme Bakery!',
  skills: ['faq_responder'],
};

interface SandboxSms {
  sid: string;
  direction: 'outbound-api' | 'inbound';
  from: string;
  to: string;
  body: string;
  num_segments: number;
  status: string;
}

interface SandboxEmail {
  envelope_to: string[];
  from: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  message_id: string | null;
  in_reply_to: string | null;
}

interface Channel {
  id: string;
  channel: string;
  provider: string;
  phone_number: string;
  address?: string;
}

interface Problem {
  status: number;
  errors?: { field: string; message: string }[];
}

const TIMEOUT = { timeoutMs: 45_000, intervalMs: 250 };

/** A fictional 555-01xx number (valid E.164): the business's and the customers'. */
const smsNumber = (lastTwo: string) => `+141555501${lastTwo}`;

describe('SMS and email end to end: connect, send, statuses, a customer writing in and the agent answering', () => {
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

  /** The tenant's webhook deliveries of one event type, each checked for a valid Standard Webhooks signature. */
  function events<T>(event: string, match: (data: T) => boolean): T[] {
    const verifier = new Webhook(secret);
    return receiver.received
      .map((d: ReceivedWebhook) => ({ d, data: JSON.parse(d.body) as T & { event: string } }))
      .filter(({ data }) => data.event === event && match(data))
      .map(({ d, data }) => {
        verifier.verify(d.body, Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)])));
        return data;
      });
  }

  async function sandboxSms(to: string): Promise<SandboxSms[]> {
    const res = await http<{ data: SandboxSms[] }>('GET', `${platform.sandbox}/_sandbox/sms/messages?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  async function sandboxMail(to: string): Promise<SandboxEmail[]> {
    const res = await http<{ data: SandboxEmail[] }>('GET', `${platform.sandbox}/_sandbox/email/messages?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  it('SMS: sends through the Twilio wire with statuses, answers a texting customer with the agent, refuses forged webhooks, honours STOP and START', async () => {
    const business = smsNumber('01');
    const customer = smsNumber('02');
    const connected = await call<Channel>('POST', '/api/v1/channels/sms', { provider: 'sandbox', phone_number: business });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({ id: expect.stringMatching(/^chn_/), channel: 'sms', provider: 'sandbox', phone_number: business });
    expect(connected.text).not.toMatch(/auth_token|account_sid/);
    expect((await call('POST', '/api/v1/channels/sms', { provider: 'twilio', phone_number: business })).body).toMatchObject({
      status: 400,
      errors: expect.arrayContaining([expect.objectContaining({ field: 'account_sid' }), expect.objectContaining({ field: 'auth_token' })]),
    });

    // Bad input names its field.
    const tooLong = await call<Problem>('POST', '/v1/send', { channel: 'sms', to: customer, message: 'x'.repeat(1601) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ field: 'message' })]);
    const notANumber = await call<Problem>('POST', '/v1/send', { channel: 'sms', to: 'ana@example.com', message: 'hi' });
    expect(notANumber.body.errors).toEqual([expect.objectContaining({ field: 'to' })]);

    // Out through Messages.json; the sandbox's signed callbacks move it to delivered.
    const text = 'Your order is ready — see you soon! ☕';
    const sent = await call<{ message_id: string }>('POST', '/v1/send', { channel: 'sms', to: customer, message: text });
    expect(sent.status).toBe(200);
    const messageId = sent.body.message_id;
    const [received] = await pollUntil(async () => {
      const list = (await sandboxSms(customer)).filter((m) => m.body === text);
      return list.length > 0 && list;
    }, { ...TIMEOUT, description: 'the SMS at the sandbox' });
    expect(received).toMatchObject({ direction: 'outbound-api', from: business, to: customer, num_segments: 1 });
    const delivered = await pollUntil(async () => {
      const res = await call<{ status: string; channel: string; status_history: { status: string }[] }>('GET', `/api/v1/messages/${messageId}`);
      return res.body.status === 'delivered' && res.body;
    }, { ...TIMEOUT, description: 'the SMS delivered' });
    expect(delivered).toMatchObject({ channel: 'sms', status_history: [{ status: 'sent' }, { status: 'delivered' }] });
    await pollUntil(() => events<MessageStatusData>('message.status', (d) => d.message_id === messageId && d.status === 'delivered').length > 0, {
      ...TIMEOUT,
      description: 'message.status delivered at the webhook',
    });
    expect(events<MessageStatusData>('message.status', (d) => d.message_id === messageId)[0]).toMatchObject({ channel: 'sms', to: customer });

    // An unreachable handset: the carrier's undelivered becomes failed with Twilio's error code.
    // The sandbox reports numbers ending in 9999 undelivered (an unreachable handset).
    const unreachable = '+14155559999';
    const lost = await call<{ message_id: string }>('POST', '/v1/send', { channel: 'sms', to: unreachable, message: 'Hello?' });
    const failed = await pollUntil(async () => {
      const res = await call<{ status: string; error?: { code: string } }>('GET', `/api/v1/messages/${lost.body.message_id}`);
      return res.body.status === 'failed' && res.body;
    }, { ...TIMEOUT, description: 'the undelivered SMS failed' });
    expect(failed.error).toMatchObject({ code: '30003' });

    // The customer texts in: the agent answers by SMS, and the webhook gets message.received on the sms channel.
    const question = 'Hi, what are your opening hours?';
    const inbound = await http<{ webhook_status: number }>('POST', `${platform.sandbox}/_sandbox/sms/inbound`, { json: { from: customer, to: business, body: question } });
    expect(inbound.body.webhook_status).toBe(200);
    const [event] = await pollUntil(() => {
      const found = events<MessageReceivedData>('message.received', (d) => d.from === customer);
      return found.length > 0 && found;
    }, { ...TIMEOUT, description: 'message.received of the SMS' });
    expect(event).toMatchObject({ channel: 'sms', from: customer, message: question, agent: 'support', agent_response: expect.any(String), type: 'text' });
    const reply = await pollUntil(async () => (await sandboxSms(customer)).find((m) => m.body === event.agent_response && m.from === business), {
      ...TIMEOUT,
      description: "the agent's SMS reply at the sandbox",
    });
    expect(reply.direction).toBe('outbound-api');

    // A later text continues the same conversation on the SMS channel.
    expect((await http<{ webhook_status: number }>('POST', `${platform.sandbox}/_sandbox/sms/inbound`, { json: { from: customer, to: business, body: 'And on Sundays?' } })).body.webhook_status).toBe(200);
    await pollUntil(() => events<MessageReceivedData>('message.received', (d) => d.from === customer).length === 2, { ...TIMEOUT, description: 'the second message.received' });
    const conversations = await call<{ data: { channel_id: string; customer: string }[] }>('GET', '/api/v1/conversations');
    expect(conversations.body.data.filter((c) => c.customer === customer)).toEqual([expect.objectContaining({ channel_id: connected.body.id })]);

    // Forged or unsigned Twilio webhooks are refused before anything is queued.
    const form = new URLSearchParams({ MessageSid: 'SMforged', From: customer, To: business, Body: 'forged', SmsStatus: 'received' }).toString();
    for (const signature of ['bm90IGEgc2lnbmF0dXJl', undefined]) {
      const res = await fetch(`${platform.gateway}/webhooks/twilio/sms`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
        body: form,
      });
      expect(res.status).toBe(401);
    }
    expect(events<MessageReceivedData>('message.received', (d) => d.message === 'forged')).toHaveLength(0);

    // STOP as carriers require: confirmed once, announced (not to the agent), and every later send to them fails.
    const texts = async (body: string) =>
      expect((await http<{ webhook_status: number }>('POST', `${platform.sandbox}/_sandbox/sms/inbound`, { json: { from: customer, to: business, body } })).body.webhook_status).toBe(200);
    await texts('STOP');
    await pollUntil(async () => (await sandboxSms(customer)).some((m) => m.from === business && m.body.includes('unsubscribed')), { ...TIMEOUT, description: 'the STOP confirmation' });
    const [optedOut] = await pollUntil(() => {
      const found = events<{ channel: string; customer: string; keyword: string }>('contact.opted_out', (d) => d.customer === customer);
      return found.length > 0 && found;
    }, { ...TIMEOUT, description: 'contact.opted_out at the webhook' });
    expect(optedOut).toMatchObject({ channel: 'sms', keyword: 'STOP' });
    const refused = await call<{ message_id: string }>('POST', '/v1/send', { channel: 'sms', to: customer, message: 'Flash sale today!' });
    const failedStop = await pollUntil(async () => {
      const res = await call<{ status: string; error?: { code: string } }>('GET', `/api/v1/messages/${refused.body.message_id}`);
      return res.body.status === 'failed' && res.body;
    }, { ...TIMEOUT, description: 'the send to an opted-out number failed' });
    expect(failedStop.error).toMatchObject({ code: 'opted_out' });
    expect((await sandboxSms(customer)).filter((m) => m.body === 'Flash sale today!')).toHaveLength(0);
    expect(events<MessageReceivedData>('message.received', (d) => d.from === customer && d.message === 'STOP')).toHaveLength(0);

    // START opts back in: confirmed, and sends reach them again.
    await texts('START');
    await pollUntil(async () => (await sandboxSms(customer)).some((m) => m.from === business && m.body.includes('subscribed again')), { ...TIMEOUT, description: 'the START confirmation' });
    const again = await call<{ message_id: string }>('POST', '/v1/send', { channel: 'sms', to: customer, message: 'Welcome back!' });
    expect(again.status).toBe(200);
    await pollUntil(async () => (await sandboxSms(customer)).some((m) => m.body === 'Welcome back!'), { ...TIMEOUT, description: 'the SMS after START' });
  });

  it('email: sends over SMTP with subject and HTML, answers a customer mail in the thread (their reply under another subject continues it), refuses unknown and oversized mail at SMTP', async () => {
    const address = `hello@acme-${randomBytes(4).toString('hex')}.test`;
    const customer = `ana.${randomBytes(4).toString('hex')}@example.com`;
    const connected = await call<Channel>('POST', '/api/v1/channels/email', { provider: 'sandbox', address });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({ channel: 'email', provider: 'sandbox', address });

    const noSubject = await call<Problem>('POST', '/v1/send', { channel: 'email', to: customer, message: 'Hi' });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.errors?.map((e) => e.field)).toContain('subject');

    const sent = await call<{ message_id: string }>('POST', '/v1/send', { channel: 'email', to: customer, subject: 'Your order', message: 'It is ready.', html: '<p>It is <b>ready</b>.</p>' });
    expect(sent.status).toBe(200);
    const [mail] = await pollUntil(async () => {
      const list = await sandboxMail(customer);
      return list.length > 0 && list;
    }, { ...TIMEOUT, description: 'the email at the SMTP sink' });
    expect(mail).toMatchObject({ subject: 'Your order', html: '<p>It is <b>ready</b>.</p>', envelope_to: [customer] });
    expect(mail.text?.trim()).toBe('It is ready.');
    expect(mail.from).toContain(address);
    expect(mail.message_id).toContain(sent.body.message_id);
    const record = await call<{ channel: string; from: string; to: string }>('GET', `/api/v1/messages/${sent.body.message_id}`);
    expect(record.body).toMatchObject({ channel: 'email', from: address, to: customer });

    // The customer answers (quoting our mail): the agent reads only the new text and replies in the thread.
    const answer = await http<{ accepted: boolean; code: number; message_id: string | null }>('POST', `${platform.sandbox}/_sandbox/email/inbound`, {
      json: {
        from: customer,
        to: address,
        subject: 'Re: Your order',
        text: 'What are your opening hours?\n\nOn Sat, 28 Nov 2026, Acme <' + address + '> wrote:\n> It is ready.',
        in_reply_to: mail.message_id,
      },
    });
    expect(answer.body).toMatchObject({ accepted: true, code: 250 });
    const [event] = await pollUntil(() => {
      const found = events<MessageReceivedData>('message.received', (d) => d.from === customer);
      return found.length > 0 && found;
    }, { ...TIMEOUT, description: 'message.received of the email' });
    expect(event).toMatchObject({ channel: 'email', from: customer, message: 'What are your opening hours?', agent_response: expect.any(String) });
    const reply = await pollUntil(async () => (await sandboxMail(customer)).find((m) => m.text?.trim() === event.agent_response?.trim()), {
      ...TIMEOUT,
      description: "the agent's email reply at the sink",
    });
    expect(reply.subject).toBe('Re: Your order');
    expect(reply.in_reply_to).toBe(answer.body.message_id);

    // The customer answers the agent's mail under another subject: the same conversation goes on.
    const followUp = await http<{ accepted: boolean; code: number }>('POST', `${platform.sandbox}/_sandbox/email/inbound`, {
      json: { from: customer, to: address, subject: 'Another question', text: 'Do you deliver?', in_reply_to: reply.message_id },
    });
    expect(followUp.body).toMatchObject({ accepted: true, code: 250 });
    await pollUntil(() => events<MessageReceivedData>('message.received', (d) => d.from === customer).length === 2, { ...TIMEOUT, description: 'message.received of the follow-up' });
    const threads = await call<{ data: { channel_id: string; customer: string }[] }>('GET', '/api/v1/conversations');
    expect(threads.body.data.filter((c) => c.customer === customer)).toEqual([expect.objectContaining({ channel_id: connected.body.id })]);

    // Refused at SMTP: a recipient no channel has (550), and a mail over the size limit (552).
    const unknown = await http<{ accepted: boolean; code: number }>('POST', `${platform.sandbox}/_sandbox/email/inbound`, { json: { from: customer, to: 'nobody@nowhere.test', subject: 'x', text: 'x' } });
    expect(unknown.body).toMatchObject({ accepted: false, code: 550 });
    const huge = await http<{ accepted: boolean; code: number }>('POST', `${platform.sandbox}/_sandbox/email/inbound`, {
      json: { from: customer, to: address, subject: 'Photos', text: 'see attached', attachment_bytes: 30 * 1024 * 1024 },
    });
    expect(huge.body).toMatchObject({ accepted: false, code: 552 });
  });
});
