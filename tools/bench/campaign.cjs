#!/usr/bin/env node
/**
 * Campaign benchmark (issue 22): the built crm-service holds RECIPIENTS contacts (imported as a CSV job), and the built
 * campaign-service runs one campaign to all of them: how long the start takes to resolve the audience from crm-service
 * and freeze it (the `start` call), the rate at which recipients are handed to `message.outbound` against the
 * campaign's configured `rate_per_second`, and campaign-service's peak RSS (VmHWM). Real Kafka, real PostgreSQL;
 * messaging-service is not running (the campaign's own side is measured: nothing consumes `message.outbound`).
 *
 *   node tools/dev/swc-build.mjs && timeout 900 node tools/bench/campaign.cjs [recipients=100000] [rate=1000]
 *
 * Progress on stderr; the numbers as JSON on the last line of stdout.
 */
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { SERVICE_NODE_FLAGS } = require('../dev/lib/stack.cjs');

const DIST = path.resolve(__dirname, '../../dist');
const { KafkaHarness, createTestDatabase, pollUntil, testInfra, uniqueKafkaNamespace } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { newId } = require(path.join(DIST, 'libs/contracts/src/index.js'));

const RECIPIENTS = Number(process.argv[2] ?? 100_000);
const RATE = Number(process.argv[3] ?? 1000);
const log = (message) => process.stderr.write(`[bench:campaign] ${message}\n`);

/** Resident set size now and at its peak (VmRSS, VmHWM of /proc/<pid>/status), in MiB. */
function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]) / 1024);
  return { now: field('VmRSS'), peak: field('VmHWM') };
}

function csvOf(rows) {
  const lines = ['phone,name,tags,city'];
  for (let i = 0; i < rows; i++) lines.push(`+1415${String(6000000 + i).padStart(7, '0')},Customer ${i},bench,City ${i % 50}`);
  return lines.join('\n') + '\n';
}

function startService(app, env) {
  execFileSync(process.execPath, [path.join(DIST, `apps/${app}/src/migrate.js`)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return spawn(process.execPath, [...SERVICE_NODE_FLAGS, path.join(DIST, `apps/${app}/src/main.js`)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function main() {
  const db = await createTestDatabase('benchcampaign');
  const namespace = uniqueKafkaNamespace('benchcampaign');
  const env = { ...process.env, NODE_ENV: 'development', DATABASE_URL: db.url, KAFKA_BROKERS: testInfra().kafkaBrokers, KAFKA_TOPIC_PREFIX: namespace, PORT: '0', LOG_LEVEL: 'error' };
  const crm = startService('crm-service', env);
  // alone with crm-service: no template check or number limit (messaging-service), no estimate (billing-service)
  const campaigns = startService('campaign-service', { ...env, CAMPAIGN_MESSAGING_CHECKS: 'false', CAMPAIGN_BILLING_ESTIMATE: 'false' });
  const kafka = await KafkaHarness.start(namespace);
  const rpc = (pattern, request, timeoutMs = 30_000) => kafka.rpc.request(pattern, request, { timeoutMs });
  let sampler;
  try {
    const tenantId = newId('ten');
    await pollUntil(() => rpc('contacts.list', { tenant_id: tenantId, limit: 1, cursor: null }, 5000).catch(() => undefined), { description: 'crm-service to answer', timeoutMs: 60_000 });
    await pollUntil(() => rpc('campaigns.list', { tenant_id: tenantId, limit: 1, cursor: null }, 5000).catch(() => undefined), { description: 'campaign-service to answer', timeoutMs: 60_000 });

    log(`importing ${RECIPIENTS} contacts`);
    const importStarted = Date.now();
    const { job_id } = await rpc('contacts.import', { tenant_id: tenantId, csv: csvOf(RECIPIENTS) });
    const job = await pollUntil(
      async () => {
        const status = await rpc('contacts.import-status', { tenant_id: tenantId, job_id }, 10_000);
        return status.status === 'completed' || status.status === 'failed' ? status : undefined;
      },
      { description: 'the import to finish', timeoutMs: 600_000, intervalMs: 500 },
    );
    if (job.created !== RECIPIENTS) throw new Error(`import: ${JSON.stringify({ ...job, failed: job.failed.slice(0, 3) })}`);
    const importSeconds = (Date.now() - importStarted) / 1000;
    log(`imported in ${importSeconds.toFixed(1)} s; campaign-service RSS before the campaign ${rssMiB(campaigns.pid).now} MiB`);

    const template = { name: 'bench_offer', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '{{contact.name}}' }, { type: 'text', text: '{{contact.attributes.city}}' }] }] };
    const draft = await rpc('campaigns.create', { tenant_id: tenantId, body: { name: 'Bench', template, audience: { tags: ['bench'] }, rate_per_second: RATE } });
    let peakRss = 0;
    sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssMiB(campaigns.pid).now);
    }, 200);

    const startAsked = Date.now();
    const started = await rpc('campaigns.transition', { tenant_id: tenantId, id: draft.id, action: 'start' }, 600_000);
    const resolveSeconds = (Date.now() - startAsked) / 1000;
    log(`start answered in ${resolveSeconds.toFixed(1)} s: audience ${started.counts.audience}, rate ${started.rate_per_second}/s`);

    // queued over time, once a second, until every recipient is handed over
    const samples = [];
    const done = await pollUntil(
      async () => {
        const current = await rpc('campaigns.get', { tenant_id: tenantId, id: draft.id });
        samples.push({ at: Date.now(), queued: current.counts.queued });
        if (samples.length % 10 === 0) log(`${current.counts.queued} handed over`);
        return current.status === 'completed' ? current : undefined;
      },
      { description: 'the campaign to complete', timeoutMs: 1_800_000, intervalMs: 1000 },
    );
    const sendSeconds = (samples[samples.length - 1].at - (startAsked + resolveSeconds * 1000)) / 1000;
    // the steady rate: between a tenth and nine tenths of the audience handed over
    const from = samples.find((s) => s.queued >= RECIPIENTS * 0.1);
    const to = samples.find((s) => s.queued >= RECIPIENTS * 0.9);
    const steady = from && to && to.at > from.at ? Math.round(((to.queued - from.queued) * 1000) / (to.at - from.at)) : null;
    clearInterval(sampler);
    const rss = rssMiB(campaigns.pid);
    const result = {
      recipients: RECIPIENTS,
      configured_rate_per_second: RATE,
      import_seconds: +importSeconds.toFixed(1),
      start_resolve_and_freeze_seconds: +resolveSeconds.toFixed(1),
      send_seconds: +sendSeconds.toFixed(1),
      achieved_rate_per_second: Math.round(done.counts.queued / sendSeconds),
      steady_rate_per_second: steady,
      queued: done.counts.queued,
      campaign_service_peak_rss_mib: Math.max(peakRss, rss.peak),
      crm_service_peak_rss_mib: rssMiB(crm.pid).peak,
      load_average: require('node:os').loadavg().map((l) => +l.toFixed(2)),
    };
    console.log(JSON.stringify(result));
  } finally {
    clearInterval(sampler);
    for (const child of [campaigns, crm]) child.kill('SIGTERM');
    await kafka.close();
    await Promise.all([campaigns, crm].map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
