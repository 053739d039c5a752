// Chaos scenario: the Kafka broker stopped for 20 s during a send load, then started again (issue 9). The stack runs
// on a broker of its own (never the shared one on 9092). Checks: every `POST /v1/send` answered `sent` is later found
// delivered to the sandbox; sends during the outage get a quick 503 (never a hang, never a 500); every service is
// ready again and sends succeed without any service being restarted.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { dist } from '../../dev/lib/platform.cjs';
import { ChaosPlatform, ROOT } from '../lib/platform.cjs';
import { delay, loadSwitch, openLoop, runId, seconds, summarizeStatuses, waitFor } from '../lib/scenario-kit.cjs';

export const name = 'broker-outage';
export const description = 'Kafka broker stopped for 20 s during a send load: nothing answered sent is lost, 503 quickly, recovery without restart';
export const order = 2;

/** Sends per second (`--send-rate`); the outage lasts `--outage-seconds`. */
const RATE = 20;
const WARM_UP_MS = 8_000;
const OUTAGE_MS = 20_000;
const AFTER_MS = 10_000;
/** CONTRACT §4: the queue must take a send within 2 s, else 503; allow the answer a little travel on a busy machine. */
const ANSWER_BOUND_MS = 4_000;
const DELIVERY_DEADLINE_MS = 120_000;
const RECOVERY_DEADLINE_MS = 90_000;

export async function run(ctx) {
  const { log, signal } = ctx;
  const outageMs = Number(ctx.args?.outageSeconds ?? OUTAGE_MS / 1000) * 1000;
  const rate = Number(ctx.args?.sendRate ?? RATE);
  const { PrivateKafka } = dist('testing');
  const failures = [];
  const figures = {};

  log('starting a private Kafka broker ...');
  const broker = await PrivateKafka.start('chaosbroker', path.join(ROOT, 'tmp', 'chaos'));
  let platform;
  try {
    log(`starting the stack on broker ${broker.brokers} ...`);
    platform = await ChaosPlatform.startUnsupervised({ label: 'broker-outage', infra: { kafkaBrokers: broker.brokers }, log });
    const tenant = await platform.tenant('Chaos Broker Outage');
    const run_ = runId();
    const marker = (i) => `chaos ${run_} send ${i}`;

    /** One record per send: when it was fired, its answer and how long that took. */
    const sends = [];
    let phase = 'before';
    const load = loadSwitch(signal);
    const loadDone = openLoop({
      rate,
      signal: load.signal,
      fire: async (i) => {
        const record = { i, phase, status: null, ms: 0 };
        sends.push(record);
        const answer = await platform.send(tenant, `+1415556${String(i % 10_000).padStart(4, '0')}`, marker(i), 30_000);
        record.status = answer.status;
        record.ms = answer.ms;
        record.sent = answer.status === 200 && answer.body?.status === 'sent';
      },
    });

    await delay(WARM_UP_MS, signal);
    log(`${sends.length} sends so far; stopping the broker for ${outageMs / 1000} s ...`);
    const stopStarted = performance.now();
    await broker.stopServer();
    phase = 'outage';
    log(`  broker stopped (${seconds(performance.now() - stopStarted)} s); waiting ${outageMs / 1000} s`);
    await delay(outageMs, signal);
    phase = 'restarting';
    const startStarted = performance.now();
    await broker.startServer();
    const brokerBack = performance.now();
    phase = 'after';
    log(`  broker started again (${seconds(brokerBack - startStarted)} s); waiting for the services to recover`);

    // Recovered: every service ready and a send answered sent again, with no restart.
    const recovered = await waitFor(
      async () => (await platform.allReady()) && sends.some((s) => s.phase === 'after' && s.sent) && performance.now(),
      { timeoutMs: RECOVERY_DEADLINE_MS, intervalMs: 250, signal },
    );
    figures['recovery time (s)'] = recovered ? seconds(recovered - brokerBack) : 'never';
    if (!recovered) failures.push(`the services were not ready and sending within ${RECOVERY_DEADLINE_MS / 1000} s of the broker's return`);
    await delay(AFTER_MS, signal);
    load.stop();
    await loadDone;

    const sent = sends.filter((s) => s.sent);
    const outage = sends.filter((s) => s.phase === 'outage' || s.phase === 'restarting');
    const unavailable = sends.filter((s) => s.status === 503);
    const other = sends.filter((s) => !s.sent && s.status !== 503);
    log(`${sends.length} sends, ${sent.length} sent, ${unavailable.length} 503; looking for the sent ones in the sandbox ...`);
    const want = new Set(sent.map((s) => marker(s.i)));
    let found = new Set();
    await waitFor(
      async () => {
        found = new Set((await platform.delivered(`chaos ${run_} send `)).filter((b) => want.has(b)));
        return found.size >= want.size;
      },
      { timeoutMs: DELIVERY_DEADLINE_MS, intervalMs: 2000, signal },
    );
    const lost = sent.filter((s) => !found.has(marker(s.i)));

    Object.assign(figures, {
      'sends fired': sends.length,
      sent: sent.length,
      delivered: found.size,
      lost: lost.length,
      '503s': unavailable.length,
      'sends during the outage': outage.length,
      'max 503 latency (ms)': Math.round(Math.max(0, ...unavailable.map((s) => s.ms))),
      'max latency during the outage (ms)': Math.round(Math.max(0, ...outage.map((s) => s.ms))),
      'other answers': other.length ? summarizeStatuses(other) : 0,
      'service exits': platform.exits().length,
    });
    if (lost.length) failures.push(`${lost.length} sends answered sent never reached the sandbox (e.g. #${lost.slice(0, 5).map((s) => s.i).join(', #')})`);
    if (outage.length && !outage.some((s) => s.status === 503)) failures.push('no send during the outage was answered 503');
    const slow = outage.filter((s) => s.ms > ANSWER_BOUND_MS);
    if (slow.length) failures.push(`${slow.length} sends during the outage took longer than ${ANSWER_BOUND_MS} ms (max ${Math.round(Math.max(...slow.map((s) => s.ms)))} ms)`);
    if (other.length) failures.push(`answers other than sent or 503: ${summarizeStatuses(other)}`);
    for (const exit of platform.exits()) failures.push(`a service exited: ${exit}`);
  } finally {
    await platform?.stop({ deleteTopics: false }).catch((err) => log(`  stopping the stack: ${err.message}`));
    await broker.remove().catch((err) => log(`  removing the private broker: ${err.message}`));
  }
  return { figures, failures };
}
