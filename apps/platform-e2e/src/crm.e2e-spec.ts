import { pollUntil } from '@parley/testing';
import { Webhook } from 'standardwebhooks';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// Contacts end to end (CONTRACT §14, issue 21): the built services over public HTTP, on real Kafka and PostgreSQL. A
// customer's first WhatsApp message makes their contact (crm-service reading messaging-service's message.inbound), the
// tenant finds, imports and exports contacts through the gateway, and contact.* reach its webhook signed.

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
  let token: string;
  let secret: string;
  const call = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await startPlatform({}, ['gateway', 'messaging-service', 'webhook-service', 'crm-service', 'whatsapp-sandbox']);
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
});
