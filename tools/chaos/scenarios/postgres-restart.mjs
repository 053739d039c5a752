// Chaos scenario: PostgreSQL stopped for 10 s and started again during a mixed load (issue 9). The services run on a
// PostgreSQL cluster of their own (never the machine's server on 5432); the WhatsApp sandbox, standing in for Meta,
// keeps its data elsewhere. Checks: the services recover on their own (ready again, no restart), every send answered
// `sent` reaches the sandbox and every inbound message accepted by the gateway reaches the tenant's webhook as
// `message.received`: consumers did not commit what they could not store.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { dist } from '../../dev/lib/platform.cjs';
import { ChaosPlatform, ROOT } from '../lib/platform.cjs';
import { Receiver, delay, loadSwitch, openLoop, runId, seconds, summarizeStatuses, waitFor } from '../lib/scenario-kit.cjs';

export const name = 'postgres-restart';
export const description = 'PostgreSQL stopped for 10 s during sends and inbound messages: services recover alone, nothing accepted is lost';
export const order = 3;

/** Per second, of sends and of inbound messages each (`--send-rate`); the outage lasts `--pg-outage-seconds`. */
const RATE = 10;
const WARM_UP_MS = 8_000;
const OUTAGE_MS = 10_000;
const AFTER_MS = 10_000;
const DELIVERY_DEADLINE_MS = 120_000;
const RECOVERY_DEADLINE_MS = 90_000;

export async function run(ctx) {
  const { log, signal } = ctx;
  const outageMs = Number(ctx.args?.pgOutageSeconds ?? OUTAGE_MS / 1000) * 1000;
  const rate = Number(ctx.args?.sendRate ?? RATE);
  const { PrivatePostgres, createTestDatabase, testInfra } = dist('testing');
  const failures = [];
  const figures = {};

  log('starting a private PostgreSQL cluster ...');
  const pg = await PrivatePostgres.start('chaospg', path.join(ROOT, 'tmp', 'chaos'));
  let sandboxDb;
  let platform;
  let receiver;
  try {
    sandboxDb = await createTestDatabase('chaospgsandbox');
    log(`starting the stack on ${pg.url('parley')} ...`);
    platform = await ChaosPlatform.startUnsupervised({
      label: 'postgres-restart',
      infra: { databaseUrl: pg.url('parley'), kafkaBrokers: testInfra().kafkaBrokers, sandboxDatabaseUrl: sandboxDb.url },
      log,
    });
    const tenant = await platform.tenant('Chaos Postgres Restart');
    receiver = await Receiver.start();
    await platform.webhook(tenant, receiver.url, ['message.received']);
    const run_ = runId();
    const sendText = (i) => `chaos ${run_} send ${i}`;
    const inboundText = (i) => `chaos ${run_} inbound ${i}`;

    const sends = [];
    const inbound = [];
    let phase = 'before';
    const load = loadSwitch(signal);
    const record = async (list, i, request) => {
      const r = { i, phase, status: null, ms: 0 };
      list.push(r);
      const answer = await request();
      Object.assign(r, { status: answer.status, ms: answer.ms, body: answer.body });
    };
    const loads = Promise.all([
      openLoop({
        rate,
        signal: load.signal,
        fire: (i) => record(sends, i, () => platform.send(tenant, `+1415557${String(i % 10_000).padStart(4, '0')}`, sendText(i), 30_000)),
      }),
      openLoop({
        rate,
        signal: load.signal,
        fire: (i) => record(inbound, i, () => platform.inbound(tenant, `+1650558${String(i % 10_000).padStart(4, '0')}`, `wamid.chaos${run_}${i}`, inboundText(i), 30_000)),
      }),
    ]);
    const isSent = (s) => s.status === 200 && s.body?.status === 'sent';

    await delay(WARM_UP_MS, signal);
    log(`${sends.length} sends and ${inbound.length} inbound so far; stopping PostgreSQL for ${outageMs / 1000} s ...`);
    await pg.stopServer('fast');
    phase = 'outage';
    await delay(outageMs, signal);
    phase = 'restarting';
    await pg.startServer();
    const back = performance.now();
    phase = 'after';
    log('  PostgreSQL is back; waiting for the services to recover');

    const recovered = await waitFor(
      async () =>
        (await platform.allReady()) &&
        sends.some((s) => s.phase === 'after' && isSent(s)) &&
        inbound.some((s) => s.phase === 'after' && s.status === 200) &&
        performance.now(),
      { timeoutMs: RECOVERY_DEADLINE_MS, intervalMs: 250, signal },
    );
    figures['recovery time (s)'] = recovered ? seconds(recovered - back) : 'never';
    if (!recovered) failures.push(`the services were not ready, sending and taking inbound messages within ${RECOVERY_DEADLINE_MS / 1000} s of PostgreSQL's return`);
    await delay(AFTER_MS, signal);
    load.stop();
    await loads;

    const accepted = sends.filter(isSent);
    const acceptedInbound = inbound.filter((s) => s.status === 200);
    log(`${accepted.length}/${sends.length} sends and ${acceptedInbound.length}/${inbound.length} inbound accepted; checking where they went ...`);
    const wantSends = new Set(accepted.map((s) => sendText(s.i)));
    const wantInbound = new Set(acceptedInbound.map((s) => inboundText(s.i)));
    let delivered = new Set();
    let received = new Set();
    await waitFor(
      async () => {
        delivered = new Set((await platform.delivered(`chaos ${run_} send `)).filter((b) => wantSends.has(b)));
        received = new Set(receivedTexts(receiver.bodies).filter((t) => wantInbound.has(t)));
        return delivered.size >= wantSends.size && received.size >= wantInbound.size;
      },
      { timeoutMs: DELIVERY_DEADLINE_MS, intervalMs: 2000, signal },
    );
    const lostSends = accepted.filter((s) => !delivered.has(sendText(s.i)));
    const lostInbound = acceptedInbound.filter((s) => !received.has(inboundText(s.i)));
    const during = [...sends, ...inbound].filter((s) => s.phase !== 'before' && s.phase !== 'after');
    const fiveXx = during.filter((s) => s.status >= 500);
    const hangs = [...sends, ...inbound].filter((s) => s.status === 0);

    Object.assign(figures, {
      'sends fired': sends.length,
      'sends accepted': accepted.length,
      'sends delivered': delivered.size,
      'inbound posted': inbound.length,
      'inbound accepted': acceptedInbound.length,
      'message.received delivered': received.size,
      lost: lostSends.length + lostInbound.length,
      'requests during the outage': during.length,
      '5xx during the outage': fiveXx.length ? summarizeStatuses(fiveXx) : 0,
      'max latency during the outage (ms)': Math.round(Math.max(0, ...during.map((s) => s.ms))),
      'unanswered (30 s)': hangs.length,
      'service exits': platform.exits().length,
    });
    if (lostSends.length) failures.push(`${lostSends.length} sends answered sent never reached the sandbox (e.g. #${lostSends.slice(0, 5).map((s) => s.i).join(', #')})`);
    if (lostInbound.length) failures.push(`${lostInbound.length} accepted inbound messages never reached the webhook as message.received (e.g. #${lostInbound.slice(0, 5).map((s) => s.i).join(', #')})`);
    if (hangs.length) failures.push(`${hangs.length} requests got no answer within 30 s`);
    const after = [...sends, ...inbound].filter((s) => s.phase === 'before' && s.status !== 200);
    if (after.length) failures.push(`${after.length} requests failed before the outage: ${summarizeStatuses(after)}`);
    for (const exit of platform.exits()) failures.push(`a service exited: ${exit}`);
  } finally {
    await receiver?.close();
    await platform?.stop().catch((err) => log(`  stopping the stack: ${err.message}`));
    await pg.remove().catch((err) => log(`  removing the private cluster: ${err.message}`));
    await sandboxDb?.drop().catch(() => undefined);
  }
  return { figures, failures };
}

/** The texts of the `message.received` deliveries (CONTRACT §5: `{event: "message.received", message, …}`). */
function receivedTexts(bodies) {
  const texts = [];
  for (const body of bodies) {
    try {
      const event = JSON.parse(body);
      if (event.event === 'message.received' && typeof event.message === 'string') texts.push(event.message);
    } catch {
      /* not JSON: not ours */
    }
  }
  return texts;
}
