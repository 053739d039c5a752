#!/usr/bin/env node
/**
 * Contact import benchmark (issue 21): a CSV of ROWS contacts (phone, email, name, tags and two attribute columns; one
 * row in 1000 bad) imported by the built crm-service as a durable job, from `contacts.import` to `completed`: rows per
 * second, and the service's peak RSS (VmHWM). Then the same file again (every row an update of an existing contact).
 * Real Kafka, real Postgres.
 *
 *   node tools/dev/swc-build.mjs && timeout 300 node tools/bench/contact-import.cjs [rows=100000]
 *
 * Prints the numbers as JSON on the last line.
 */
'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { prepareServiceEnv, spawnService } = require('./lib/service.cjs');

const DIST = path.resolve(__dirname, '../../dist');
const { KafkaHarness, pollUntil } = require(path.join(DIST, 'libs/testing/src/index.js'));
const { newId } = require(path.join(DIST, 'libs/contracts/src/index.js'));

const ROWS = Number(process.argv[2] ?? 100_000);

function csvOf(rows) {
  const lines = ['phone,email,name,tags,plan,city'];
  for (let i = 0; i < rows; i++) {
    const phone = i % 1000 === 999 ? 'not-a-number' : `+1415${String(5000000 + i).padStart(7, '0')}`;
    lines.push(`${phone},customer${i}@example.com,Customer ${i},${i % 2 ? 'vip;paid' : 'lead'},${['gold', 'silver', 'bronze'][i % 3]},"City ${i % 50}"`);
  }
  return lines.join('\n') + '\n';
}

/** Peak resident set size of a process so far, in MiB (VmHWM of /proc/<pid>/status). */
const peakRssMiB = (pid) => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);

async function importOnce(kafka, tenantId, csv) {
  const started = Date.now();
  const { job_id } = await kafka.rpc.request('contacts.import', { tenant_id: tenantId, csv }, { timeoutMs: 30_000 });
  const job = await pollUntil(
    async () => {
      const status = await kafka.rpc.request('contacts.import-status', { tenant_id: tenantId, job_id }, { timeoutMs: 10_000 });
      return status.status === 'completed' || status.status === 'failed' ? status : undefined;
    },
    { description: 'the import to finish', timeoutMs: 240_000, intervalMs: 250 },
  );
  const seconds = (Date.now() - started) / 1000;
  return { seconds, rows_per_second: Math.round(ROWS / seconds), status: job.status, total: job.total, created: job.created, updated: job.updated, failed: job.failed.length };
}

async function main() {
  const { db, namespace, env } = await prepareServiceEnv('benchimport', { apps: ['crm-service'], settings: { PORT: '0', LOG_LEVEL: 'error' } });
  const service = spawnService('crm-service', env);
  const kafka = await KafkaHarness.start(namespace);
  try {
    const tenantId = newId('ten');
    await pollUntil(() => kafka.rpc.request('contacts.list', { tenant_id: tenantId, limit: 1, cursor: null }, { timeoutMs: 5000 }).catch(() => undefined), {
      description: 'crm-service to answer',
      timeoutMs: 60_000,
    });
    const csv = csvOf(ROWS);
    const first = await importOnce(kafka, tenantId, csv);
    const again = await importOnce(kafka, tenantId, csv);
    const result = { rows: ROWS, csv_mib: +(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1), first, again, service_peak_rss_mib: peakRssMiB(service.pid) };
    console.log(JSON.stringify(result));
  } finally {
    service.kill('SIGTERM');
    await kafka.close();
    await new Promise((resolve) => service.once('exit', resolve));
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
