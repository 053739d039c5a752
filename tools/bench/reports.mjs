#!/usr/bin/env node
// The conversation reports (issue 35, CONTRACT.md §18) over a month of 100,000 conversations, in process against real
// PostgreSQL (no stack, no Kafka):
//
//   npm run bench -- reports        builds dist/, then runs this
//   node tools/bench/reports.mjs    after a build (node tools/dev/swc-build.mjs)
//
// A throwaway database (DATABASE_URL's server, or 127.0.0.1:5432) gets the responder's migrations; one tenant's month
// of conversations (--conversations, 100,000) is written as the inbox leaves them (60 % answered by the agent alone,
// the rest handed off to one of 12 members of 3 teams on 3 channels, first replies after 1–90 min, 70 % closed, 8 %
// with a missed SLA target), beside other tenants' (--others, 100,000). The built ReportsService then answers what
// the two routes ask: `GET /api/v1/reports/conversations` per grouping (day, member, team, channel; and day as a
// member of role agent sees it) --runs times each, and the CSV route's pages of 1,000 lines, all of them, in order.
// Printed: p50 and p95 per query, and the whole CSV's time. The gateway's hop (one Kafka request-reply, ~1–3 ms on
// this machine) is not in these figures. The database is dropped at the end. Not a test: it asserts nothing.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist/apps/responder-service/src');
const require = createRequire(import.meta.url);
const { values: args } = parseArgs({ options: { conversations: { type: 'string', default: '100000' }, others: { type: 'string', default: '100000' }, runs: { type: 'string', default: '20' } } });
const CONVERSATIONS = Number(args.conversations);
const OTHERS = Number(args.others);
const RUNS = Number(args.runs);
const TENANT = 'ten_bench_reports';
const MONTH = { from: '2026-11-01', to: '2026-11-30', tz: 'Europe/Madrid' };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const f = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const log = (m) => process.stderr.write(`${m}\n`);

/**
 * A month of conversations written in one statement: who, when, and what happened, from generate_series and
 * deterministic hashes of the row number (the same data every run).
 */
const SEED = `
  WITH g AS (SELECT n, ('x' || substr(md5(n::text || $2), 1, 8))::bit(32)::int & 2147483647 AS h FROM generate_series(1, $3) AS n),
  c AS (
    SELECT n, h,
           timestamptz '2026-11-01 00:00:00+01' + (h % (30 * 86400)) * interval '1 second' AS started_at,
           (h / 7) % 100 < 40 AS handed_off,
           (h / 11) % 100 < 70 AS closed,
           (h / 13) % 100 < 8 AS breached
      FROM g)
  INSERT INTO conversations (id, tenant_id, channel_id, channel, business_number, customer, state, started_at, last_message_at, source,
                             assignee, team_id, handed_off_at, first_member_reply_at, closed_at, sla_breaches, labels)
  SELECT 'cnv_' || lpad(upper(to_hex(n)), 26, '0') || $2, $1, 'chn_01JD8Z9D1B2C3D4E5F6G7H8J9K', (ARRAY['whatsapp', 'sms', 'email'])[1 + (h / 17) % 3],
         '+4930000001', '+4915' || lpad((h % 100000000)::text, 9, '0'),
         CASE WHEN closed THEN 'closed' WHEN handed_off THEN 'handed_off' ELSE 'active' END,
         started_at, started_at, 'customer',
         CASE WHEN handed_off THEN 'usr_' || lpad(((h / 19) % 12)::text, 26, '0') END,
         CASE WHEN handed_off THEN 'tea_' || lpad(((h / 19) % 3)::text, 26, '0') END,
         CASE WHEN handed_off THEN started_at + ((h / 23) % 600) * interval '1 second' END,
         CASE WHEN handed_off THEN started_at + interval '10 minutes' + ((h / 29) % 5400) * interval '1 second' END,
         CASE WHEN closed THEN started_at + interval '5 minutes' + ((h / 31) % 86400) * interval '1 second' END,
         CASE WHEN handed_off AND breached THEN ARRAY['first_response'] ELSE '{}' END,
         CASE WHEN (h / 37) % 10 = 0 THEN ARRAY['vip'] ELSE '{}' END
    FROM c`;

async function main() {
  if (!existsSync(path.join(DIST, 'reports/reports.service.js'))) throw new Error('dist/apps/responder-service is missing or old: build first (node tools/dev/swc-build.mjs), or run `npm run bench -- reports`');
  const pg = require('pg');
  const kit = require(path.join(ROOT, 'dist/node_modules/@parley/service-kit'));
  const { DataSource } = require('typeorm');
  const { responderServiceDatabase } = require(path.join(DIST, 'database/responder-service.database.js'));
  const { ReportsStore } = require(path.join(DIST, 'reports/reports.store.js'));
  const { ReportsService } = require(path.join(DIST, 'reports/reports.service.js'));

  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/parley');
  const name = `bench_reports_${Date.now().toString(36)}`;
  const url = new URL(`/${name}`, base).toString();
  const admin = new pg.Client({ connectionString: new URL('/postgres', base).toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  let db = null;
  try {
    await kit.runMigrations(url, responderServiceDatabase);
    db = new DataSource(kit.dataSourceOptions(url, responderServiceDatabase));
    await db.initialize();
    let t = performance.now();
    await db.query(SEED, [TENANT, 'a', CONVERSATIONS]);
    for (let i = 0; i < Math.ceil(OTHERS / 10_000); i++) await db.query(SEED, [`ten_bench_other_${i}`, `o${i}`, Math.min(10_000, OTHERS - i * 10_000)]);
    await db.query('ANALYZE conversations');
    log(`reports: ${CONVERSATIONS} conversations of one tenant and ${OTHERS} of others written in ${f((performance.now() - t) / 1000)} s`);

    const reports = new ReportsService(new ReportsStore(db), new kit.ListCursors('bench'));
    const time = async (run) => {
      const times = [];
      let last;
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        last = await run();
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      return { p50: percentile(times, 50), p95: percentile(times, 95), rows: last.data.length };
    };
    const rows = [];
    for (const groupBy of ['day', 'member', 'team', 'channel']) {
      const r = await time(() => reports.conversations(TENANT, { ...MONTH, member: null }, groupBy));
      rows.push([`GET /api/v1/reports/conversations?group_by=${groupBy}`, r.rows, f(r.p50), f(r.p95)]);
    }
    const agent = await time(() => reports.conversations(TENANT, { ...MONTH, member: `usr_${'0'.repeat(25)}3` }, 'day'));
    rows.push(['… group_by=day as a member of role agent', agent.rows, f(agent.p50), f(agent.p95)]);

    const pages = [];
    let lines = 0;
    t = performance.now();
    for (let cursor = null; ; ) {
      const start = performance.now();
      const page = await reports.lines(TENANT, { ...MONTH, member: null }, 1000, cursor);
      pages.push(performance.now() - start);
      lines += page.data.length;
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    const csvMs = performance.now() - t;
    pages.sort((a, b) => a - b);
    rows.push([`GET /api/v1/reports/conversations.csv, a page of 1,000 lines (${pages.length} pages)`, lines, f(percentile(pages, 50)), f(percentile(pages, 95))]);

    console.log(
      [
        '',
        `Conversation reports over a month of ${CONVERSATIONS.toLocaleString('en')} conversations (one tenant; ${OTHERS.toLocaleString('en')} of others beside them), ${RUNS} runs each, tz ${MONTH.tz}:`,
        '',
        '| query | rows | p50 ms | p95 ms |',
        '| --- | --: | --: | --: |',
        ...rows.map((r) => `| ${r.join(' | ')} |`),
        '',
        `The whole CSV (${lines.toLocaleString('en')} lines, every page in turn): ${f(csvMs / 1000)} s in the service, before the gateway writes it out.`,
      ].join('\n'),
    );
  } finally {
    await db?.destroy().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err) => log(`reports: could not drop ${name}: ${err.message}`));
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
