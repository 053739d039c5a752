// Agent replies during a campaign (issue 22, CONTRACT.md §15: "replies go first"): a campaign sends an approved template
// to its audience on one sandbox number limited to `rate` sends a second (the campaign takes three quarters of it),
// and while it sends, recipients who already got the template write in, one every few seconds. Each reply's latency
// runs from the customer's POST to the sandbox (as Meta receiving the customer's message) to the sandbox storing the
// agent's answer, the same measure as the campaigns e2e test, here over many customers. Status callbacks on.
import { api, dist } from '../lib/platform.mjs';
import { Latencies, RssSampler, delay, progress, round } from '../lib/measure.mjs';

/** Customers who write in during the campaign, spread over its sending time. */
const WRITERS = 20;
const REPLY_TIMEOUT_MS = 30_000;
const SETUP_TIMEOUT_MS = 120_000;

export async function campaignRepliesScenario({ platform, seconds, rate, log }) {
  const { pollUntil } = dist('testing');
  const until = (probe, description, timeoutMs = SETUP_TIMEOUT_MS) => pollUntil(probe, { description, timeoutMs, intervalMs: 250 });
  const tenant = await platform.tenant('bench campaign');
  const { apiKey: token, channel } = tenant;
  const call = (method, path, json) => api(method, `${platform.gateway}${path}`, { token, json });
  const campaignRate = Math.floor((rate * 3) / 4);
  const audience = Math.max(100, campaignRate * seconds);

  await call('PATCH', `/api/v1/channels/${channel.id}`, { send_limit_per_second: rate });
  await call('PUT', '/api/v1/agents/support', { name: 'support', instruction: 'You are the assistant of Spring Bakery.', greeting: '', skills: ['faq_responder'] });
  const template = (
    await call('POST', '/api/v1/templates', {
      name: 'bench_spring',
      language: 'en',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hi {{1}}, our spring cakes are in.', example: { body_text: [['Ana']] } }],
    })
  ).body;
  await until(async () => (await call('GET', `/api/v1/templates/${template.id}`)).body.status === 'APPROVED', 'the template approved');

  log(`  importing ${audience} contacts`);
  const phones = Array.from({ length: audience }, (_, i) => `+1303555${String(i).padStart(4, '0')}`);
  const csv = ['phone,name,tags', ...phones.map((p, i) => `${p},Customer ${i},bench`)].join('\n');
  const imported = await fetch(`${platform.gateway}/api/v1/contacts/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: csv });
  if (imported.status !== 202) throw new Error(`the contact import answered ${imported.status}: ${await imported.text()}`);
  const { job_id: jobId } = await imported.json();
  await until(async () => (await call('GET', `/api/v1/contacts/import/${jobId}`)).body.status === 'completed', 'the contact import');

  const created = (
    await call('POST', '/api/v1/campaigns', {
      name: 'Bench spring',
      template: { name: 'bench_spring', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '{{contact.name}}' }] }] },
      audience: { tags: ['bench'] },
      rate_per_second: rate,
    })
  ).body;
  const sampler = new RssSampler(platform.pids());
  const startedAt = Date.now();
  const started = (await call('POST', `/api/v1/campaigns/${created.id}/start`)).body;
  log(`  campaign ${created.id} started in ${Date.now() - startedAt} ms: ${audience} recipients at ${started.rate_per_second}/s, number limit ${rate}/s`);

  const business = channel.phone_number.replace(/\D/g, '');
  /** Customers who have the template by now, oldest first. */
  const templated = async () =>
    (
      await platform.query(
        `SELECT customer_number FROM sandbox.messages WHERE direction = 'outbound' AND type = 'template' AND regexp_replace(business_number, '\\D', '', 'g') = $1 ORDER BY created_at, seq`,
        [business],
      )
    ).map((r) => (r.customer_number.startsWith('+') ? r.customer_number : `+${r.customer_number}`));
  const replyAt = async (customer) =>
    (
      await platform.query(
        `SELECT created_at FROM sandbox.messages WHERE direction = 'outbound' AND type = 'text' AND regexp_replace(customer_number, '\\D', '', 'g') = $1 ORDER BY created_at LIMIT 1`,
        [customer.replace(/\D/g, '')],
      )
    )[0]?.created_at;

  const latencies = new Latencies();
  const written = new Set();
  let missing = 0;
  const replies = [];
  const stop = progress('campaign', () => `${written.size}/${WRITERS} customers wrote in, ${latencies.count} replies`);
  const spacingMs = Math.max(500, (seconds * 1000) / (WRITERS + 1));
  for (let i = 0; i < WRITERS; i++) {
    await delay(spacingMs);
    const customer = (await templated()).reverse().find((c) => !written.has(c));
    if (!customer) continue;
    written.add(customer);
    const writtenAt = Date.now();
    const answer = await fetch(`${platform.url('whatsapp-sandbox')}/_sandbox/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: customer, to: channel.phone_number, text: 'Do you have gluten-free ones?' }),
    });
    if (answer.status !== 200) throw new Error(`the sandbox's inbound answered ${answer.status}`);
    replies.push(
      until(() => replyAt(customer), `the reply to ${customer}`, REPLY_TIMEOUT_MS).then(
        (at) => latencies.add(at.getTime() - writtenAt),
        () => missing++,
      ),
    );
  }
  await Promise.all(replies);
  stop();
  const counts = (await call('GET', `/api/v1/campaigns/${created.id}`)).body.counts;
  const elapsedS = (Date.now() - startedAt) / 1000;
  const rss = sampler.stop();
  const summary = latencies.summary();
  log(`  replies during the campaign: ${latencies.count} of ${written.size}, p50 ${summary.p50} ms, max ${summary.max} ms; campaign sent ${counts.sent} of ${audience} in ${round(elapsedS)} s`);
  return [
    {
      scenario: 'agent replies during a campaign',
      offered: WRITERS,
      achieved: latencies.count,
      ...summary,
      errors: missing,
      rss,
      cpu: sampler.cpu,
      note: `reply latency (customer's message at the sandbox → agent's reply stored by the sandbox; target ≤ 2,000 ms) while a campaign of ${audience} sends at ${started.rate_per_second}/s on a number limited to ${rate}/s, status callbacks on; ${counts.sent} sent in ${round(elapsedS)} s`,
    },
  ];
}
