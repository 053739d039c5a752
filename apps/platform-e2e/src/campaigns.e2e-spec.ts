import { pollUntil } from '@parley/testing';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';
import { topUpWallet } from './support/wallet';

// Campaigns end to end (CONTRACT §15, issue 22): the built services over public HTTP, on real Kafka and PostgreSQL, with
// the WhatsApp sandbox as the provider. What reaches a customer is read back from the sandbox's record of messages.

const AUDIENCE = 2_000;
const CHAOS_AUDIENCE = 600;
/** The number's send limit (messages per second); a campaign gets three quarters of it, agent replies the rest. */
const NUMBER_LIMIT = 80;
const TIMEOUT = { timeoutMs: 60_000, intervalMs: 250 };

interface Campaign {
  id: string;
  status: string;
  rate_per_second: number;
  estimate: { amount: string; currency: string } | null;
  counts: Record<'audience' | 'queued' | 'sent' | 'delivered' | 'read' | 'replied' | 'failed' | 'skipped_opted_out', number>;
}

interface SandboxMessage {
  id: string;
  from: string;
  to: string;
  type: string;
  text?: { body: string };
  template?: { name: string };
  timestamp: string;
}

/** How many phones received each number of templates: `{ 1: 1999 }` when each got exactly one. */
const phonesBySends = (perPhone: number[]) => perPhone.reduce<Record<number, number>>((tally, n) => ({ ...tally, [n]: (tally[n] ?? 0) + 1 }), {});

/** `count` distinct US numbers from `first` on (+1 202 555 xxxx). */
const numbers = (first: number, count: number) => Array.from({ length: count }, (_, i) => `+1202555${String(first + i).padStart(4, '0')}`);

describe('campaigns end to end: 2,000 contacts paced under the number limit, exactly once each, through crashes', () => {
  let platform: Platform;
  let token: string;
  let business: string;
  const call = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });

  beforeAll(async () => {
    // A send whose outcome a killed messaging-service never learnt is retried after this wait unless a status names it
    // first (the sandbox reports within a second); the default minute would outlast the file.
    platform = await startPlatform({ WHATSAPP_UNCONFIRMED_SEND_WAIT_MS: '15000' });
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Spring Bakery' } });
    expect(account.status).toBe(201);
    token = account.body.api_key;
    // 2,600 marketing templates are more than the free allowance (1,000 messages a month): the rest is paid, and a
    // start the wallet cannot cover is refused (BILLING_ENFORCED). The owner tops up first, as a business would.
    await topUpWallet(platform, token, '200.00');

    const channel = (await call<{ data: { id: string; provider: string; phone_number: string }[] }>('GET', '/api/v1/channels')).body.data.find((c) => c.provider === 'sandbox')!;
    business = channel.phone_number;
    const limited = await call<{ send_limit_per_second: number }>('PATCH', `/api/v1/channels/${channel.id}`, { send_limit_per_second: NUMBER_LIMIT });
    expect({ status: limited.status, limit: limited.body.send_limit_per_second }).toEqual({ status: 200, limit: NUMBER_LIMIT });

    const agent = await call('PUT', '/api/v1/agents/support', { name: 'support', instruction: 'You are the assistant of Spring Bakery.', greeting: '', skills: ['faq_responder'] });
    expect(agent.status).toBe(201);

    const template = await call<{ id: string }>('POST', '/api/v1/templates', {
      name: 'spring_cakes',
      language: 'en',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hi {{1}}, our spring cakes are in.', example: { body_text: [['Ana']] } }],
    });
    expect(template.status).toBe(201);
    await pollUntil(async () => (await call<{ status: string }>('GET', `/api/v1/templates/${template.body.id}`)).body.status === 'APPROVED', {
      ...TIMEOUT,
      description: 'the template approved',
    });
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  /** Imports `phones` as contacts tagged `tag` (CSV, in the background) and waits for the job. */
  async function importContacts(phones: string[], tag: string): Promise<void> {
    const csv = ['phone,name,tags', ...phones.map((p, i) => `${p},Customer ${i},${tag}`)].join('\n');
    const started = await fetch(`${platform.gateway}/api/v1/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: csv });
    expect(started.status).toBe(202);
    const { job_id } = (await started.json()) as { job_id: string };
    const job = await pollUntil(async () => {
      const status = await call<{ status: string }>('GET', `/api/v1/contacts/import/${job_id}`);
      return status.body.status === 'completed' && status.body;
    }, { ...TIMEOUT, description: `the import of ${phones.length} contacts` });
    expect(job).toMatchObject({ total: phones.length, created: phones.length, failed: [] });
  }

  /** Creates and starts a campaign of the approved template to the contacts tagged `tag`. */
  async function startCampaign(name: string, tag: string): Promise<Campaign> {
    const created = await call<Campaign>('POST', '/api/v1/campaigns', {
      name,
      template: { name: 'spring_cakes', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '{{contact.name}}' }] }] },
      audience: { tags: [tag] },
      // asks for the number's whole limit: the start keeps it to three quarters
      rate_per_second: NUMBER_LIMIT,
    });
    expect(created.status).toBe(201);
    const started = await call<Campaign>('POST', `/api/v1/campaigns/${created.body.id}/start`);
    expect({ status: started.status, body: started.body }).toMatchObject({ status: 200, body: { status: 'running', rate_per_second: (NUMBER_LIMIT * 3) / 4 } });
    return started.body;
  }

  const campaign = async (id: string) => (await call<Campaign>('GET', `/api/v1/campaigns/${id}`)).body;

  /** Waits until every recipient's message has a provider status: nothing of the campaign is in flight any more. */
  const settled = (id: string, messages: number) =>
    pollUntil(async () => {
      const current = await campaign(id);
      return current.status === 'completed' && current.counts.queued === 0 && current.counts.sent + current.counts.failed === messages && current;
    }, { timeoutMs: 120_000, intervalMs: 500, description: `campaign ${id} completed with a status for each of its ${messages} messages` });

  /** Everything the business number sent, as the sandbox recorded it (oldest first, paged by time). */
  async function sentByBusiness(): Promise<SandboxMessage[]> {
    const seen = new Map<string, SandboxMessage>();
    let since: string | undefined;
    for (;;) {
      const page = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?from=${encodeURIComponent(business)}&limit=1000${since ? `&since=${encodeURIComponent(since)}` : ''}`);
      expect(page.status).toBe(200);
      const fresh = page.body.data.filter((m) => !seen.has(m.id));
      for (const m of page.body.data) seen.set(m.id, m);
      if (page.body.data.length < 1000 || fresh.length === 0) return [...seen.values()];
      since = page.body.data[page.body.data.length - 1].timestamp;
    }
  }

  /** How many campaign templates each of `phones` received at the sandbox. */
  async function templatesPerPhone(phones: string[]): Promise<Map<string, number>> {
    const counts = new Map(phones.map((p) => [p, 0]));
    for (const m of await sentByBusiness()) {
      const to = m.to.startsWith('+') ? m.to : `+${m.to}`;
      if (m.type === 'template' && m.template?.name === 'spring_cakes' && counts.has(to)) counts.set(to, counts.get(to)! + 1);
    }
    return counts;
  }

  it(`sends ${AUDIENCE - 1} of ${AUDIENCE} contacts (one opted out) the template exactly once at 3/4 of the number's ${NUMBER_LIMIT}/s, counts match the sandbox, and a customer writing in meanwhile is answered ahead of the campaign's queue`, async () => {
    const phones = numbers(5000, AUDIENCE);
    await importContacts(phones, 'spring');
    const optedOut = phones[123];
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: optedOut, to: business, text: 'STOP' } })).status).toBe(200);
    await pollUntil(async () => (await call<{ data: { phone: string }[] }>('GET', '/api/v1/contacts?opted_out=true')).body.data.some((c) => c.phone === optedOut), {
      ...TIMEOUT,
      description: 'the contact opted out',
    });

    const started = await startCampaign('Spring cakes', 'spring');
    expect(started.estimate).toEqual({ amount: expect.stringMatching(/^\d+\.\d{6}$/), currency: 'USD' });

    // A recipient who already has the template writes in while the campaign is still sending.
    const first = await pollUntil(async () => (await sentByBusiness()).find((m) => m.type === 'template'), { ...TIMEOUT, description: 'the first campaign message at the sandbox' });
    const customer = first.to.startsWith('+') ? first.to : `+${first.to}`;
    const writtenAt = Date.now();
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: business, text: 'Do you have gluten-free ones?' } })).status).toBe(200);
    // A generous wait: what is asserted is the campaign's progress meanwhile, below (15 s ran out in a local run with
    // two other processes taking the cores).
    const reply = await pollUntil(async () => {
      const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
      return res.body.data.find((m) => m.type === 'text');
    }, { timeoutMs: 30_000, intervalMs: 50, description: "the agent's reply at the sandbox" });
    const during = await campaign(started.id);
    const replyLatencyMs = Date.parse(reply.timestamp) - writtenAt;
    process.stderr.write(`[campaigns-e2e] reply latency during the campaign: ${replyLatencyMs} ms, ${during.counts.queued + during.counts.sent} of ${AUDIENCE - 1} handed over\n`);
    // The reply did not queue behind the campaign: it reached the customer while most of the campaign was still to be
    // handed over (behind it, it would come after all 1,999, ~33 s at 60/s). Said in the campaign's own progress, not in
    // seconds: when the machine is busy every hop slows alike, the campaign's too. How fast a reply is meanwhile is a
    // benchmark's question (`npm run bench -- replies`, issue 22's 2 s over 20 customers): this spec alone on an idle
    // machine answered in 0.68-0.99 s (2026-11-29); inside the whole suite in 2026-12 fresh-clone runs, 3.9 and 5.2 s
    // (issue 33: a message's CPU cost saturates the two cores at the campaign's 60/s).
    expect(during.status).toBe('running');
    expect(during.counts.queued + during.counts.sent).toBeLessThan((AUDIENCE - 1) / 2);

    const done = await settled(started.id, AUDIENCE - 1);
    const perPhone = await templatesPerPhone(phones);
    const received = [...perPhone.values()];
    // how many phones got 0, 1, 2… templates, in one comparison: a failure says whether some went twice or not at all
    expect({ optedOut: perPhone.get(optedOut), phonesBySends: phonesBySends(received) }).toEqual({ optedOut: 0, phonesBySends: { 0: 1, 1: AUDIENCE - 1 } });
    expect(done.counts).toMatchObject({ audience: AUDIENCE, skipped_opted_out: 1, queued: 0, failed: 0, sent: AUDIENCE - 1, replied: 1 });
    expect(done.counts.sent).toBe(received.reduce((a, b) => a + b, 0));
    const skipped = await call<{ data: { phone: string }[] }>('GET', `/api/v1/campaigns/${started.id}/recipients?status=skipped_opted_out`);
    expect(skipped.body.data.map((r) => r.phone)).toEqual([optedOut]);
  }, 180_000);

  it(`still sends each of ${CHAOS_AUDIENCE} recipients exactly once when campaign-service and messaging-service are SIGKILLed mid-campaign`, async () => {
    const phones = numbers(7100, CHAOS_AUDIENCE);
    await importContacts(phones, 'chaos');
    const started = await startCampaign('Crash test', 'chaos');
    await pollUntil(async () => {
      const { counts } = await campaign(started.id);
      return counts.queued + counts.sent >= 100;
    }, { ...TIMEOUT, intervalMs: 100, description: 'the campaign under way' });
    const during = await campaign(started.id);
    expect(during.counts.queued + during.counts.sent).toBeLessThan(CHAOS_AUDIENCE);

    await Promise.all([platform.killService('campaign-service'), platform.killService('messaging-service')]);
    await Promise.all([platform.startService('campaign-service'), platform.startService('messaging-service')]);

    // every message has a provider status: none is waiting to be retried, so what the sandbox holds is final
    const done = await settled(started.id, CHAOS_AUDIENCE);
    const received = [...(await templatesPerPhone(phones)).values()];
    expect(phonesBySends(received)).toEqual({ 1: CHAOS_AUDIENCE });
    expect(done.counts).toMatchObject({ audience: CHAOS_AUDIENCE, queued: 0, failed: 0, sent: CHAOS_AUDIENCE });
  }, 180_000);
});
