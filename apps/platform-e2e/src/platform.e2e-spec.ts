import type { components } from '@parley/api-client';
import type { MessageReceivedData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { apiClient } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver, type ReceivedWebhook } from './support/webhook-receiver';

// Everything here goes through the public HTTP API (CONTRACT.md), as a tenant, its customer and its webhook
// endpoint would see it; the services run as built processes on real Kafka and PostgreSQL.

const CUSTOMER = '+14155550123';
const QUESTION = 'Hi, what are your opening hours?';
const GREETING = 'Hello from Acme Bakery!';
const SUPPORT_AGENT: components['schemas']['UpsertAgentBody'] = {
  name: 'support',
  instruction: 'You are the assistant of Acme Bakery. Answer questions about opening hours, orders and visits.',
  greeting: GREETING,
  skills: ['faq_responder', 'lead_capture', 'appointment_booking'],
};

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
    platform = await sharedPlatform();
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  /** Sign-up and an OAuth token (client credentials), as a new tenant does first. */
  async function signUp(name: string): Promise<Tenant> {
    const api = apiClient(platform.gateway);
    const account = await api.POST('/api/v1/accounts', { body: { name } });
    expect(account.response.status).toBe(201);
    expect(account.data).toMatchObject({
      tenant_id: expect.stringMatching(/^ten_/),
      plan: 'free',
      client_id: expect.any(String),
      client_secret: expect.any(String),
      api_key: expect.any(String),
    });
    const { tenant_id, client_id, client_secret } = account.data!;
    const token = await api.POST('/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } });
    expect(token.response.status).toBe(200);
    expect(token.data).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number) });
    return { tenantId: tenant_id, token: token.data!.access_token };
  }

  /** What the sandbox's WhatsApp delivered to a customer number from one business number. */
  async function deliveredTo(customer: string, phoneNumberId: string): Promise<SandboxMessage[]> {
    const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
    expect(res.status).toBe(200);
    return res.body.data.filter((m) => m.phone_number_id === phoneNumberId);
  }

  it("sends on WhatsApp, and answers a customer with the tenant's agent, announced to the tenant's webhook with a valid signature", async () => {
    const { sandbox } = platform;
    const acme = await signUp('Acme Bakery');
    const api = apiClient(platform.gateway, acme.token);

    const agent = await api.PUT('/api/v1/agents/{agent_name}', { params: { path: { agent_name: 'support' } }, body: SUPPORT_AGENT });
    expect(agent.response.status).toBe(201);
    expect(agent.data).toMatchObject({ id: expect.stringMatching(/^agt_/), name: 'support', greeting: GREETING, version: 1 });
    expect([...agent.data!.skills].sort()).toEqual([...SUPPORT_AGENT.skills].sort());

    const webhook = await api.POST('/api/v1/webhooks', { body: { url: receiver.url } });
    expect(webhook.response.status).toBe(201);
    expect(webhook.data).toMatchObject({ id: expect.stringMatching(/^whk_/), url: receiver.url, secret: expect.stringMatching(/^whsec_/) });
    const secret = webhook.data!.secret;

    // The caller's own tenant_id in the body is allowed; without it, the credential decides.
    const sentIds: string[] = [];
    for (const tenant_id of [acme.tenantId, undefined]) {
      const sent = await api.POST('/v1/send', { body: { channel: 'whatsapp', to: CUSTOMER, message: 'Hello', tenant_id } });
      expect(sent.response.status).toBe(200);
      expect(sent.data).toEqual({ status: 'sent', message_id: expect.stringMatching(/^msg_/) });
      sentIds.push(sent.data!.message_id);
    }
    expect(new Set(sentIds).size).toBe(2);

    // Every new account has a sandbox WhatsApp number of its own.
    const channels = await api.GET('/api/v1/channels');
    expect(channels.response.status).toBe(200);
    const channel = channels.data!.data.find((c) => c.provider === 'sandbox');
    if (!channel) throw new Error(`the account has no sandbox channel: ${JSON.stringify(channels.data)}`);
    const phoneNumberId = channel.phone_number_id;
    if (!phoneNumberId) throw new Error(`the sandbox channel has no phone_number_id: ${JSON.stringify(channel)}`);

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
    const event = new Webhook(secret).verify(delivery.body, headers) as MessageReceivedData;
    expect(() => new Webhook(secret).verify(delivery.body.replace(QUESTION, 'Hi, are you open?'), headers)).toThrow();
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
    const owner = apiClient(platform.gateway, (await signUp('Owner Ltd')).token);
    const stranger = apiClient(platform.gateway, (await signUp('Stranger Ltd')).token);
    const anonymous = apiClient(platform.gateway);
    const to = '+14155550188';

    const sent = await owner.POST('/v1/send', { body: { channel: 'whatsapp', to, message: 'Your order is ready' } });
    expect(sent.response.status).toBe(200);
    const message = { params: { path: { message_id: sent.data!.message_id } } };

    const record = await pollUntil(
      async () => {
        const res = await owner.GET('/api/v1/messages/{message_id}', message);
        return res.response.status === 200 && res.data;
      },
      { timeoutMs: 5_000, description: 'the sent message to be readable' },
    );
    const [number] = (await owner.GET('/api/v1/channels')).data!.data;
    expect(record).toMatchObject({
      message_id: sent.data!.message_id,
      direction: 'outbound',
      channel: 'whatsapp',
      from: number.phone_number, // the sending number: the account's own sandbox channel
      to,
      type: 'text',
      message: 'Your order is ready',
    });
    expect(['sent', 'delivered', 'read']).toContain(record.status);
    expect(Array.isArray(record.status_history)).toBe(true);

    const foreign = await stranger.GET('/api/v1/messages/{message_id}', message);
    expect(foreign.response.status).toBe(404);
    expect(foreign.response.headers.get('content-type')).toContain('application/problem+json');
    expect(foreign.error).toMatchObject({ status: 404, type: expect.stringMatching(/not-found$/) });

    const unauthenticated = await anonymous.GET('/api/v1/messages/{message_id}', message);
    expect(unauthenticated.response.status).toBe(401);
    expect(unauthenticated.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const anonymousSend = await anonymous.POST('/v1/send', { body: { channel: 'whatsapp', to, message: 'Hello' } });
    expect(anonymousSend.response.status).toBe(401);
  });

  it('learns from a document (CONTRACT.md §11): an uploaded file becomes ready, the agent answers from it, and its deletion takes that back within 5 s', async () => {
    const api = apiClient(platform.gateway, (await signUp('Bloom Dental')).token);
    const stranger = apiClient(platform.gateway, (await signUp('Other Clinic')).token);
    const agent = { params: { path: { agent_name: 'clinic' } } };
    const put = await api.PUT('/api/v1/agents/{agent_name}', { ...agent, body: { name: 'clinic', instruction: 'You are the assistant of Bloom Dental.', greeting: '', skills: ['faq_responder'] } });
    expect(put.response.status).toBe(201);
    const ask = async () => (await api.POST('/api/v1/agents/{agent_name}/test', { ...agent, body: { message: 'how much does teeth whitening cost?' } })).data!.reply;
    expect(await ask()).not.toContain('$300');

    const form = new FormData();
    form.append('title', 'Price list');
    form.append('file', new Blob(['# Prices\n\n## Whitening\n\nTeeth whitening costs $300 per session and takes about an hour.\n'], { type: 'text/markdown' }), 'prices.md');
    const created = await api.POST('/api/v1/agents/{agent_name}/documents', { ...agent, body: form as never, bodySerializer: (body: unknown) => body as FormData });
    expect(created.response.status).toBe(202);
    expect(created.data).toMatchObject({ id: expect.stringMatching(/^doc_/), title: 'Price list', source: 'file', status: 'processing', chunks: null, error: null });
    // the answer is a document, or for a sitemap an import: a file upload is a document
    if (!created.data || !('id' in created.data)) throw new Error(`expected a document, got ${JSON.stringify(created.data)}`);
    const documentId = created.data.id;
    const document = { params: { path: { agent_name: 'clinic', document_id: documentId } } };

    const ready = await pollUntil(
      async () => {
        const res = await api.GET('/api/v1/agents/{agent_name}/documents/{document_id}', document);
        return res.data?.status === 'ready' && res.data;
      },
      { timeoutMs: 30_000, intervalMs: 200, description: 'the document processed' },
    );
    expect(ready).toMatchObject({ chunks: 1, error: null });
    await pollUntil(async () => (await ask()).includes('$300'), { timeoutMs: 5_000, intervalMs: 200, description: 'an answer from the document within 5 s' });
    expect((await api.GET('/api/v1/agents/{agent_name}/documents', agent)).data!.data.map((d) => d.id)).toEqual([documentId]);
    expect((await stranger.GET('/api/v1/agents/{agent_name}/documents/{document_id}', document)).response.status).toBe(404);

    expect((await api.DELETE('/api/v1/agents/{agent_name}/documents/{document_id}', document)).response.status).toBe(204);
    await pollUntil(async () => !(await ask()).includes('$300'), { timeoutMs: 5_000, intervalMs: 200, description: 'the deleted document out of the answers within 5 s' });
    expect((await api.GET('/api/v1/agents/{agent_name}/documents/{document_id}', document)).response.status).toBe(404);
  });
  it('hands a customer who asks for a person to the inbox: unread, told once, the member replies on WhatsApp, given back the agent answers (CONTRACT.md §12)', async () => {
    const { sandbox } = platform;
    const shop = await signUp('Inbox Shop');
    const api = apiClient(platform.gateway, shop.token);
    const customer = '+14155550177';
    expect((await api.PUT('/api/v1/agents/{agent_name}', { params: { path: { agent_name: 'support' } }, body: SUPPORT_AGENT })).response.status).toBe(201);
    expect((await api.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['conversation.handoff'] } })).response.status).toBe(201);
    const channel = (await api.GET('/api/v1/channels')).data!.data.find((c) => c.provider === 'sandbox')!;
    const phoneNumberId = channel.phone_number_id!;
    const write = async (text: string) =>
      expect((await http('POST', `${sandbox}/_sandbox/inbound`, { json: { from: customer, to: channel.phone_number, text } })).status).toBe(200);
    const texts = async () => (await deliveredTo(customer, phoneNumberId)).map((m) => m.text?.body ?? '');

    await write('Can I talk to a person please?');
    const inbox = await pollUntil(
      async () => (await api.GET('/api/v1/conversations', { params: { query: { state: 'handed_off' } } })).data?.data.find((c) => c.customer === customer && c.unread >= 1),
      { timeoutMs: 30_000, intervalMs: 250, description: 'the conversation handed off and unread in the inbox' },
    );
    await pollUntil(async () => (await texts()).some((t) => t.includes('passing you to a member of our team')), { timeoutMs: 30_000, intervalMs: 250, description: 'the handoff message' });
    const handoff = await pollUntil(
      () => receiver.received.map((d) => parse(d.body)).find((e) => e.event === 'conversation.handoff' && e.conversation_id === inbox.id),
      { timeoutMs: 45_000, intervalMs: 250, description: 'conversation.handoff at the tenant webhook' },
    );
    expect(handoff).toMatchObject({ tenant_id: shop.tenantId, reason: 'customer_asked_for_human', dashboard_url: expect.stringMatching(new RegExp(`/dashboard/inbox/${inbox.id}$`)) });

    // While handed off the agent is silent: a second message is only counted.
    await write('Hello? Anyone?');
    await pollUntil(async () => (await api.GET('/api/v1/conversations/{id}', { params: { path: { id: inbox.id } } })).data?.unread === 2, {
      timeoutMs: 30_000,
      intervalMs: 250,
      description: 'unread 2',
    });

    const reply = await api.POST('/api/v1/conversations/{id}/messages', { params: { path: { id: inbox.id } }, body: { message: 'Hi, Tom from the shop here. How can I help?' } });
    expect(reply.response.status).toBe(201);
    await pollUntil(async () => (await texts()).includes('Hi, Tom from the shop here. How can I help?'), { timeoutMs: 30_000, intervalMs: 250, description: 'the member reply in the sandbox' });
    expect((await texts()).filter((t) => t.includes('passing you to a member of our team'))).toHaveLength(1);

    const givenBack = await api.PATCH('/api/v1/conversations/{id}', { params: { path: { id: inbox.id } }, body: { state: 'active' } });
    expect(givenBack.data).toMatchObject({ state: 'active' });
    const before = (await texts()).length;
    await write('Thanks! What are your opening hours?');
    await pollUntil(async () => (await texts()).length > before, { timeoutMs: 30_000, intervalMs: 250, description: 'the agent answering again' });
    const thread = (await api.GET('/api/v1/conversations/{id}', { params: { path: { id: inbox.id } } })).data!;
    expect(thread.messages.map((m) => m.author.type)).toEqual(['customer', 'agent', 'customer', 'api', 'customer', 'agent']);
  });
});
