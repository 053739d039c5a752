import type { AgentRecord, ChannelRecord, MessageReceivedData, MessageRecord } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

// Everything here goes through the public HTTP API (CONTRACT.md), as a tenant, its customer and its webhook
// endpoint would see it; the services run as built processes on real Kafka and PostgreSQL.

const CUSTOMER = '+14155550123';
const QUESTION = 'Hi, what are your opening hours?';
const GREETING = 'Hello from Acme Bakery!';
const SUPPORT_AGENT = {
  name: 'support',
  instruction: 'You are the assistant of Acme Bakery. Answer questions about opening hours, orders and visits.',
  greeting: GREETING,
  skills: ['faq_responder', 'lead_capture', 'appointment_booking'],
};

interface Account {
  tenant_id: string;
  plan: string;
  client_id: string;
  client_secret: string;
  api_key: string;
}
interface Token {
  access_token: string;
  token_type: string;
  expires_in: number;
}
interface Sent {
  status: string;
  message_id: string;
}
interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
}
interface SandboxMessage {
  id: string;
  phone_number_id: string;
  to: string;
  type: string;
  text?: { body: string };
  timestamp: string;
}
interface Tenant {
  tenantId: string;
  token: string;
}

function parse(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

describe('Parley end to end: the whole system over HTTP, on real Kafka and PostgreSQL', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await startPlatform();
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  /** Sign-up and an OAuth token (client credentials), as a new tenant does first. */
  async function signUp(name: string): Promise<Tenant> {
    const account = await http<Account>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name } });
    expect(account.status).toBe(201);
    expect(account.body).toMatchObject({
      tenant_id: expect.stringMatching(/^ten_/),
      plan: 'free',
      client_id: expect.any(String),
      client_secret: expect.any(String),
      api_key: expect.any(String),
    });
    const { client_id, client_secret } = account.body;
    const token = await http<Token>('POST', `${platform.gateway}/oauth/token`, { json: { grant_type: 'client_credentials', client_id, client_secret } });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number) });
    return { tenantId: account.body.tenant_id, token: token.body.access_token };
  }

  /** What the sandbox's WhatsApp delivered to a customer number from one business number. */
  async function deliveredTo(customer: string, phoneNumberId: string): Promise<SandboxMessage[]> {
    const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
    expect(res.status).toBe(200);
    return res.body.data.filter((m) => m.phone_number_id === phoneNumberId);
  }

  it("sends on WhatsApp, and answers a customer with the tenant's agent, announced to the tenant's webhook with a valid signature", async () => {
    const { gateway, sandbox } = platform;
    const acme = await signUp('Acme Bakery');
    const token = acme.token;

    const agent = await http<AgentRecord>('PUT', `${gateway}/api/v1/agents/support`, { token, json: SUPPORT_AGENT });
    expect(agent.status).toBe(201);
    expect(agent.body).toMatchObject({ id: expect.stringMatching(/^agt_/), name: 'support', greeting: GREETING, version: 1 });
    expect([...agent.body.skills].sort()).toEqual([...SUPPORT_AGENT.skills].sort());

    const webhook = await http<WebhookEndpoint>('POST', `${gateway}/api/v1/webhooks`, { token, json: { url: receiver.url } });
    expect(webhook.status).toBe(201);
    expect(webhook.body).toMatchObject({ id: expect.stringMatching(/^whk_/), url: receiver.url, secret: expect.stringMatching(/^whsec_/) });

    // The caller's own tenant_id in the body is allowed; without it, the credential decides.
    const sentIds: string[] = [];
    for (const body of [
      { channel: 'whatsapp', to: CUSTOMER, message: 'Hello', tenant_id: acme.tenantId },
      { channel: 'whatsapp', to: CUSTOMER, message: 'Hello' },
    ]) {
      const sent = await http<Sent>('POST', `${gateway}/v1/send`, { token, json: body });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ status: 'sent', message_id: expect.stringMatching(/^msg_/) });
      sentIds.push(sent.body.message_id);
    }
    expect(new Set(sentIds).size).toBe(2);

    // Every new account has a sandbox WhatsApp number of its own.
    const channels = await http<{ data: ChannelRecord[] }>('GET', `${gateway}/api/v1/channels`, { token });
    expect(channels.status).toBe(200);
    const channel = channels.body.data.find((c) => c.provider === 'sandbox');
    if (!channel) throw new Error(`the account has no sandbox channel: ${channels.text}`);
    const phoneNumberId = channel.phone_number_id;
    if (!phoneNumberId) throw new Error(`the sandbox channel has no phone_number_id: ${channels.text}`);

    const hellos = await pollUntil(
      async () => {
        const texts = (await deliveredTo(CUSTOMER, phoneNumberId)).filter((m) => m.text?.body === 'Hello');
        return texts.length >= 2 && texts;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'both "Hello" texts to reach the customer in the sandbox' },
    );
    expect(hellos).toHaveLength(2);

    // The customer writes in.
    const inbound = await http<{ id: string }>('POST', `${sandbox}/_sandbox/inbound`, { json: { from: CUSTOMER, to: channel.phone_number, text: QUESTION } });
    expect(inbound.status).toBe(200);
    expect(inbound.body.id).toMatch(/^wamid/);

    const delivery = await pollUntil<ReceivedWebhook>(
      () => receiver.received.find((d) => parse(d.body).event === 'message.received'),
      { timeoutMs: 45_000, intervalMs: 250, description: 'message.received at the tenant webhook' },
    );
    // Verified as a tenant would, with the Standard Webhooks library and the secret from the webhook's creation.
    const headers = headerRecord(delivery.headers);
    const event = new Webhook(webhook.body.secret).verify(delivery.body, headers) as MessageReceivedData;
    expect(() => new Webhook(webhook.body.secret).verify(delivery.body.replace(QUESTION, 'Hi, are you open?'), headers)).toThrow();
    expect(event).toMatchObject({
      event: 'message.received',
      channel: 'whatsapp',
      from: CUSTOMER,
      message: QUESTION,
      tenant_id: acme.tenantId,
      type: 'text',
      message_id: expect.stringMatching(/^msg_/),
      reply_message_id: expect.stringMatching(/^msg_/),
    });
    expect(Number.isNaN(Date.parse(event.received_at))).toBe(false);
    expect(event.agent_response).toEqual(expect.any(String));
    const reply = event.agent_response ?? '';
    expect(reply.startsWith(GREETING)).toBe(true);
    expect(receiver.received.filter((d) => parse(d.body).event === 'message.received')).toHaveLength(1);

    // ...and the customer got that same reply on WhatsApp.
    const answered = await pollUntil(
      async () => (await deliveredTo(CUSTOMER, phoneNumberId)).find((m) => m.text?.body === reply),
      { timeoutMs: 30_000, intervalMs: 250, description: "the agent's reply to reach the customer in the sandbox" },
    );
    expect(answered.to.replace(/\D/g, '')).toBe(CUSTOMER.replace(/\D/g, ''));
  });

  it('lets a tenant read its sent message, answers 404 to another tenant and 401 without a credential', async () => {
    const { gateway } = platform;
    const owner = await signUp('Owner Ltd');
    const stranger = await signUp('Stranger Ltd');
    const to = '+14155550188';

    const sent = await http<Sent>('POST', `${gateway}/v1/send`, { token: owner.token, json: { channel: 'whatsapp', to, message: 'Your order is ready' } });
    expect(sent.status).toBe(200);
    const url = `${gateway}/api/v1/messages/${sent.body.message_id}`;

    const record = await pollUntil(
      async () => {
        const res = await http<MessageRecord>('GET', url, { token: owner.token });
        return res.status === 200 && res.body;
      },
      { timeoutMs: 5_000, description: 'the sent message to be readable' },
    );
    expect(record).toMatchObject({
      message_id: sent.body.message_id,
      direction: 'outbound',
      channel: 'whatsapp',
      to,
      type: 'text',
      message: 'Your order is ready',
    });
    expect(['accepted', 'sent', 'delivered', 'read']).toContain(record.status);
    expect(Array.isArray(record.status_history)).toBe(true);

    const foreign = await http('GET', url, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');

    const anonymous = await http('GET', url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const anonymousSend = await http('POST', `${gateway}/v1/send`, { json: { channel: 'whatsapp', to, message: 'Hello' } });
    expect(anonymousSend.status).toBe(401);
  });
});
