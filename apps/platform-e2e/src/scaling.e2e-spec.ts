import type { MessageReceivedData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { Webhook } from 'standardwebhooks';
import { apiClient } from './support/api';
import { http } from './support/http';
import { WebhookReceiver } from './support/webhook-receiver';
import { ScaledPlatform, counterTotal, type ScaledApp } from './scaling/scaled-platform';

// Two instances of every consumer service (separate processes, one consumer group each) under load, as an
// orchestrator would run them: the work is shared, nothing is done twice, each conversation stays in order, and
// scaling one instance down hands its partitions to the other without losing anything. Two gateways share the
// request-reply topics. Customers write to several tenants' sandbox numbers, so the raw notifications
// (keyed by number) and the conversations (keyed by tenant and customer) spread over the partitions.

const TENANTS = 6;
const CUSTOMERS_PER_TENANT = 4;
/** Messages each customer sends while both instances run, and after the second instances were told to stop. */
const BEFORE_STOP = 2;
const AFTER_STOP = 2;
const FAQ = { question: 'What are your opening hours?', answer: 'We open at 8:00.' };

interface Tenant {
  tenantId: string;
  token: string;
  number: string;
  secret: string;
}

describe('scaling out: two instances of each service on one Kafka consumer group', () => {
  let platform: ScaledPlatform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await ScaledPlatform.start();
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  /** A tenant set up through both gateways in turn: every call is request-reply behind the gateway. */
  async function setUpTenant(i: number): Promise<Tenant> {
    const gateway = platform.url('gateway', (i % 2) as 0 | 1);
    const other = platform.url('gateway', ((i + 1) % 2) as 0 | 1);
    const account = await apiClient(gateway).POST('/api/v1/accounts', { body: { name: `Scaling ${i}` } });
    expect(account.response.status).toBe(201);
    const token = account.data!.api_key;
    const api = apiClient(other, token);
    const agent = await api.PUT('/api/v1/agents/{agent_name}', {
      params: { path: { agent_name: 'support' } },
      body: { name: 'support', instruction: 'Answer about opening hours.', greeting: 'Hi!', skills: ['faq_responder'], faqs: [FAQ] },
    });
    expect(agent.response.status).toBe(201);
    const webhook = await apiClient(gateway, token).POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['message.received'], ordered: true } });
    expect(webhook.response.status).toBe(201);
    const channels = await api.GET('/api/v1/channels');
    const channel = channels.data!.data.find((c) => c.provider === 'sandbox')!;
    return { tenantId: account.data!.tenant_id, token, number: channel.phone_number, secret: webhook.data!.secret };
  }

  /** Each customer writes `count` messages, one after the other (each durably queued before the next). */
  async function write(tenants: Tenant[], from: number, count: number): Promise<void> {
    await Promise.all(
      tenants.flatMap((tenant, t) =>
        Array.from({ length: CUSTOMERS_PER_TENANT }, async (_, c) => {
          for (let m = from; m < from + count; m++) {
            const sent = await http('POST', `${platform.url('whatsapp-sandbox')}/_sandbox/inbound`, { json: { from: customer(t, c), to: tenant.number, text: `opening hours? #${m}` } });
            expect(sent.status).toBe(200);
          }
        }),
      ),
    );
  }

  const customer = (t: number, c: number) => `+1415555${String(t * 100 + c).padStart(4, '0')}`;
  const events = () => receiver.received.map((r) => ({ id: String(r.headers['webhook-id']), data: JSON.parse(r.body) as MessageReceivedData }));
  const repliesLogged = (instance: 0 | 1) => (platform.lines[instance]['responder-service'] ?? []).filter((l) => l.includes(': replied'));
  const metric = async (app: ScaledApp, instance: 0 | 1, name: string) => counterTotal((await http<string>('GET', `${platform.url(app, instance)}/metrics`)).text, name);

  it('shares the work, processes each message once and in order, and survives scaling one instance down', async () => {
    const tenants = await Promise.all(Array.from({ length: TENANTS }, (_, i) => setUpTenant(i)));

    // Request-reply through both gateways at once: each caller gets its own answers from the shared reply topic.
    const calls = await Promise.all(
      tenants.flatMap((tenant) => [0, 1, 0, 1].map((instance) => apiClient(platform.url('gateway', instance as 0 | 1), tenant.token).GET('/api/v1/agents/{agent_name}', { params: { path: { agent_name: 'support' } } }))),
    );
    expect(calls.map((c) => c.response.status)).toEqual(calls.map(() => 200));

    const total = TENANTS * CUSTOMERS_PER_TENANT * (BEFORE_STOP + AFTER_STOP);
    await write(tenants, 0, BEFORE_STOP);

    // Both instances of every consumer service take part (their own counters, read before one of them stops).
    const shared = await pollUntil(
      async () => {
        const work = {
          responder: [repliesLogged(0).length, repliesLogged(1).length],
          messagingSends: [await metric('messaging-service', 0, 'messaging_provider_sends_total'), await metric('messaging-service', 1, 'messaging_provider_sends_total')],
          webhookAttempts: [await metric('webhook-service', 0, 'webhook_delivery_attempts_total'), await metric('webhook-service', 1, 'webhook_delivery_attempts_total')],
        };
        return Object.values(work).every(([first, second]) => first > 0 && second > 0) && work;
      },
      { timeoutMs: 60_000, intervalMs: 500, description: 'work done by both instances of every consumer service' },
    );
    process.stderr.write(`[scaling-e2e] work per instance before the scale-down: ${JSON.stringify(shared)}\n`);

    // Scale down while messages are still in flight, and keep the customers writing.
    await Promise.all([
      platform.stopSecond('messaging-service'),
      platform.stopSecond('responder-service'),
      platform.stopSecond('webhook-service'),
      write(tenants, BEFORE_STOP, AFTER_STOP),
    ]);

    await pollUntil(() => new Set(events().map((e) => e.id)).size >= total, { timeoutMs: 90_000, intervalMs: 250, description: `${total} message.received webhooks` });

    // Nothing lost, nothing twice: one event per inbound message, each signed for its tenant. A delivery cut off by the
    // scale-down may be retried: CONTRACT.md §5 allows that and keeps its webhook-id, so a retry must be the same event
    // (same id, same body) and is counted once; two events for one message would still fail here.
    const deliveries = events();
    const received = [...new Map(deliveries.map((e) => [e.id, e])).values()];
    for (const retry of deliveries.filter((e, i) => deliveries.findIndex((d) => d.id === e.id) !== i)) {
      expect(retry.data).toEqual(received.find((e) => e.id === retry.id)?.data);
    }
    if (deliveries.length > received.length) process.stderr.write(`[scaling-e2e] ${deliveries.length - received.length} delivery retries of the same event\n`);
    expect(received).toHaveLength(total);
    expect(new Set(received.map((e) => e.data.message_id)).size).toBe(total);
    for (const r of receiver.received) {
      const tenant = tenants.find((t) => t.tenantId === (JSON.parse(r.body) as MessageReceivedData).tenant_id)!;
      expect(() => new Webhook(tenant.secret).verify(r.body, Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])))).not.toThrow();
    }
    const repliedTwice = repliesLogged(0).filter((line) => repliesLogged(1).some((other) => other.includes(line.match(/inbound (msg_\w+)/)?.[1] ?? '-')));
    expect(repliedTwice).toEqual([]);

    // Each conversation in order, every message answered by the agent.
    tenants.forEach((tenant, t) => {
      for (let c = 0; c < CUSTOMERS_PER_TENANT; c++) {
        const conversation = received.filter((e) => e.data.tenant_id === tenant.tenantId && e.data.from === customer(t, c));
        expect(conversation.map((e) => e.data.message)).toEqual(Array.from({ length: BEFORE_STOP + AFTER_STOP }, (_, m) => `opening hours? #${m}`));
        expect(conversation.every((e) => e.data.agent_response?.includes(FAQ.answer))).toBe(true);
      }
    });

    // Each reply reached its customer exactly once (several messages may share one reply; none is sent twice).
    const replyIds = new Set(received.map((e) => e.data.reply_message_id));
    const delivered = await pollUntil(
      async () => {
        const res = await http<{ data: { text?: { body: string } }[] }>('GET', `${platform.url('whatsapp-sandbox')}/_sandbox/messages?since=1970-01-01T00:00:00Z`);
        const replies = res.body.data.filter((m) => m.text?.body.includes(FAQ.answer));
        return replies.length >= replyIds.size && replies;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'every reply in the sandbox' },
    );
    expect(delivered).toHaveLength(replyIds.size);
  }, 240_000);
});
