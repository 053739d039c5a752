import { pollUntil } from '@parley/testing';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// Contacts end to end (CONTRACT §14, issue 21): the built services over public HTTP, on real Kafka and PostgreSQL. A
// customer's first WhatsApp message makes their contact (crm-service reading messaging-service's message.inbound), the
// tenant finds, imports and exports contacts through the gateway, and contact.* reach its webhook signed. Deleting a
// contact erases it from every service: afterwards no table of any schema holds its number or what it wrote.

const CUSTOMER = '+14155550177';
const TIMEOUT = { timeoutMs: 45_000, intervalMs: 250 };

interface Contact {
  id: string;
  phone: string | null;
  name: string | null;
  tags: string[];
}

describe('contacts end to end: made by a first message, found, imported, exported, announced', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;
  let everyEvent: WebhookReceiver | undefined;
  let token: string;
  let secret: string;
  const call = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await sharedPlatform();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Acme Bakery' } });
    expect(account.status).toBe(201);
    token = account.body.api_key;
    const webhook = await call<{ secret: string }>('POST', '/api/v1/webhooks', { url: receiver.url, events: ['contact.created', 'contact.deleted'] });
    expect(webhook.status).toBe(201);
    secret = webhook.body.secret;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
    await everyEvent?.close();
  });

  const webhookBodies = () => receiver.received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { event: string; contact?: Contact; contact_id?: string });

  it("makes a contact of a customer's first message, finds it, and announces it; deleting it is announced too", async () => {
    const channels = await call<{ data: { provider: string; phone_number: string }[] }>('GET', '/api/v1/channels');
    const channel = channels.body.data.find((c) => c.provider === 'sandbox')!;
    for (const text of ['Hi there', 'Are you open today?']) {
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: CUSTOMER, to: channel.phone_number, text } })).status).toBe(200);
    }
    const found = await pollUntil(async () => {
      const page = await call<{ data: Contact[] }>('GET', `/api/v1/contacts?q=${encodeURIComponent('5550177')}`);
      return page.body.data.length > 0 && page.body.data;
    }, { ...TIMEOUT, description: "the customer's contact" });
    expect(found).toEqual([expect.objectContaining({ phone: CUSTOMER })]);
    const contact = found[0];
    await pollUntil(() => webhookBodies().some((b) => b.event === 'contact.created' && b.contact?.id === contact.id), { ...TIMEOUT, description: 'contact.created at the webhook' });
    // two messages, one contact, one contact.created
    expect(webhookBodies().filter((b) => b.event === 'contact.created' && b.contact?.phone === CUSTOMER)).toHaveLength(1);

    expect((await call('DELETE', `/api/v1/contacts/${contact.id}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/contacts/${contact.id}`)).status).toBe(404);
    await pollUntil(() => webhookBodies().some((b) => b.event === 'contact.deleted' && b.contact_id === contact.id), { ...TIMEOUT, description: 'contact.deleted at the webhook' });
  });

  it('imports a CSV in the background, reports the bad row, and exports every contact as CSV', async () => {
    const csv = 'phone,name,tags,plan\n+14155550181,Bo,vip;paid,gold\n555-0182,Cy,,\n+14155550183,Dee,,silver\n';
    const started = await fetch(`${platform.gateway}/api/v1/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: csv });
    expect(started.status).toBe(202);
    const { job_id } = (await started.json()) as { job_id: string };
    const job = await pollUntil(async () => {
      const status = await call<{ status: string }>('GET', `/api/v1/contacts/import/${job_id}`);
      return status.body.status === 'completed' && status.body;
    }, { ...TIMEOUT, description: 'the import to complete' });
    expect(job).toMatchObject({ total: 3, created: 2, updated: 0, failed: [{ row: 2, error: expect.stringContaining('E.164') }] });
    const bo = (await call<{ data: Contact[] }>('GET', '/api/v1/contacts?tag=vip')).body.data;
    expect(bo).toEqual([expect.objectContaining({ phone: '+14155550181', name: 'Bo', tags: ['vip', 'paid'] })]);

    const exported = await fetch(`${platform.gateway}/api/v1/contacts/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await exported.text()).trim().split('\n');
    expect(lines[0]).toBe('id,phone,email,name,company_id,tags,opted_out,attributes,created_at,updated_at');
    expect(lines.slice(1).map((line) => line.split(',')[1]).sort()).toEqual(['+14155550181', '+14155550183']);
  });

  it("erases a deleted contact everywhere: its conversation, messages, lead, timeline, campaign rows and kept webhook events hold neither its number nor its words", async () => {
    const customer = '+14155550199';
    const words = 'Erin Vale wants a lilac wedding cake';
    // a second endpoint taking every event, so webhook-service keeps (for replay) everything said about the customer
    everyEvent = await WebhookReceiver.start();
    const everything = await call<{ id: string }>('POST', '/api/v1/webhooks', { url: everyEvent.url });
    expect(everything.status).toBe(201);
    const agent = await call('PUT', '/api/v1/agents/helper', { name: 'helper', instruction: 'You are the assistant of Acme Bakery.', greeting: 'Hello from Acme Bakery!', skills: ['lead_capture'] });
    expect(agent.status).toBeLessThan(300);
    const channels = await call<{ data: { provider: string; phone_number: string }[] }>('GET', '/api/v1/channels');
    const channel = channels.body.data.find((c) => c.provider === 'sandbox')!;
    for (const text of [`Hi! ${words}.`, 'My name is Erin Vale and my email is erin.vale@example.com']) {
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: channel.phone_number, text } })).status).toBe(200);
    }
    const contact = await pollUntil(async () => (await call<{ data: Contact[] }>('GET', '/api/v1/contacts?q=5550199')).body.data[0], { ...TIMEOUT, description: 'the contact' });
    // the tenant writes too, and keeps a note on the contact's timeline
    expect((await call('POST', '/v1/send', { channel: 'whatsapp', to: customer, message: `Erin, about the ${words.split(' ').slice(-3).join(' ')}: yes.` })).status).toBe(200);
    expect((await call('POST', `/api/v1/contacts/${contact.id}/activities`, { type: 'note', text: `${words} (called twice)` })).status).toBe(201);
    // everything has landed where it lives: the agent's replies, the lead, the timeline, the signed events
    await pollUntil(async () => (await call<{ data: { customer: string }[] }>('GET', '/api/v1/conversations')).body.data.some((c) => c.customer === customer), { ...TIMEOUT, description: 'the conversation' });
    await pollUntil(async () => (await call<{ data: { email: string | null }[] }>('GET', '/api/v1/leads')).body.data.some((l) => l.email === 'erin.vale@example.com'), { ...TIMEOUT, description: 'the lead' });
    const timeline = await pollUntil(async () => {
      const page = await call<{ data: { type: string; direction: string | null; text: string | null }[] }>('GET', `/api/v1/contacts/${contact.id}/activities`);
      const messages = page.body.data.filter((e) => e.type === 'message');
      return messages.some((e) => e.direction === 'in') && messages.filter((e) => e.direction === 'out').length >= 2 && page.body.data.some((e) => e.type === 'lead_captured') && page.body.data;
    }, { ...TIMEOUT, description: 'the timeline: messages both ways and the lead' });
    expect(timeline.find((e) => e.type === 'message' && e.direction === 'in' && e.text?.includes(words))).toBeDefined();
    await pollUntil(() => everyEvent!.received.filter((r) => r.body.includes('5550199')).length >= 3 || undefined, { ...TIMEOUT, description: 'events about the customer at the webhook' });

    const db = new Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      // every table of every service's schema (the sandbox's stands for Meta: what the customer's phone received is
      // theirs), each row as text: where the number (its digits, any format), the words or the email are
      const tables: { schema: string; name: string }[] = (
        await db.query(`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema', 'sandbox')`)
      ).rows;
      const holding = async () => {
        const found: string[] = [];
        for (const t of tables) {
          const { rows } = await db.query(`SELECT count(*)::int AS n FROM "${t.schema}"."${t.name}" AS r WHERE strpos(r::text, '4155550199') > 0 OR strpos(r::text, 'lilac wedding') > 0 OR strpos(r::text, 'erin.vale@') > 0`);
          if (rows[0].n > 0) found.push(`${t.schema}.${t.name} (${rows[0].n})`);
        }
        return found;
      };
      const before = await holding();
      // the data is really spread across the services before the deletion
      expect(before).toEqual(expect.arrayContaining([expect.stringMatching(/^messaging\.messages /), expect.stringMatching(/^responder\.conversation_messages /), expect.stringMatching(/^responder\.leads /), expect.stringMatching(/^webhooks?\.events /), expect.stringMatching(/^crm\.contact_activities /)]));

      expect((await call('DELETE', `/api/v1/contacts/${contact.id}`)).status).toBe(204);
      let left: string[] = before;
      await pollUntil(async () => (left = await holding()).length === 0, { ...TIMEOUT, description: 'no table holding the number or the words' }).catch(() => {
        throw new Error(`still holding the deleted contact's data: ${left.join(', ')}`);
      });
    } finally {
      await db.end();
    }
    // the messages keep their ids, without their text and the customer's number
    const messages = await call<{ data: { to: string; from: string | null }[] }>('GET', '/api/v1/messages?limit=100');
    expect(messages.status).toBe(200);
    expect(JSON.stringify(messages.body)).not.toContain('5550199');
    // and the tenant was told, by id
    const deleted = await pollUntil(() => webhookBodies().find((b) => b.event === 'contact.deleted' && b.contact_id === contact.id), { ...TIMEOUT, description: 'contact.deleted at the webhook' });
    expect(deleted).toMatchObject({ phone: null, email: null });
  });
});
