// Scenario 3, webhook fan-out: `message.received` events published to Kafka at a fixed rate for a tenant with fast
// local endpoints; deliveries per second and latency from the publish to the receiver. Then the same beside an
// endpoint that never answers (every attempt to it runs into the time-out): the healthy ones should keep their rate.
import { performance } from 'node:perf_hooks';
import { api, dist } from '../lib/platform.mjs';
import { Latencies, RssSampler, delay, openLoop, progress, round } from '../lib/measure.mjs';
import { Receiver } from '../lib/receiver.mjs';
import { messageReceived } from '../lib/events.cjs';

const HEALTHY_ENDPOINTS = 4;
const GRACE_MS = 15_000;

export async function fanoutScenario({ platform, seconds, rate, log }) {
  const { KafkaHarness } = dist('testing');
  const kafka = await KafkaHarness.start(platform.namespace);
  const state = { sentAt: new Map(), latencies: new Latencies(), lastAt: 0 };
  const onDelivery = (_body, headers, at) => {
    const sent = state.sentAt.get(headers['webhook-id']);
    if (sent === undefined) return;
    state.latencies.add(at - sent);
    state.lastAt = at;
  };

  /**
   * One round on a tenant of its own, with fresh endpoints (and a dead one beside them when asked): `eventsPerSecond`
   * published for `secs`. Afterwards its endpoints are deleted with their pending deliveries, so no backlog reaches
   * the next round.
   */
  const publishRound = async ({ label, eventsPerSecond, secs, pids, withDead = false }) => {
    const tenant = await platform.tenant(`bench ${label}`);
    const healthy = await Promise.all(Array.from({ length: HEALTHY_ENDPOINTS }, () => Receiver.start({ onDelivery })));
    const dead = withDead ? await Receiver.start({ dead: true }) : null;
    const endpoints = [];
    try {
      for (const receiver of dead ? [...healthy, dead] : healthy) {
        const webhook = (await api('POST', `${platform.gateway}/api/v1/webhooks`, { token: tenant.apiKey, json: { url: receiver.url, events: ['message.received'] } })).body;
        receiver.useSecret(webhook.secret);
        endpoints.push(webhook.id);
      }
      state.sentAt = new Map();
      state.latencies = new Latencies();
      const startedAt = performance.now();
      state.lastAt = startedAt;
      const sampler = pids ? new RssSampler(pids) : null;
      const stop = progress(label, () => `${state.sentAt.size} events published, ${state.latencies.count} deliveries`);
      const publishing = await openLoop({
        rate: eventsPerSecond,
        seconds: secs,
        fire: (i) => {
          const from = `+49151${String(20_000_000 + (i % 1000))}`;
          const { envelope, key } = messageReceived(tenant.tenantId, from, `fan-out ${i}`);
          state.sentAt.set(envelope.id, performance.now());
          return kafka.publisher.publishEvent(envelope, key, undefined, { timeoutMs: 30_000 });
        },
      });
      // An event whose publish failed may still have reached the broker: it stays expected, and counts if delivered.
      const expected = state.sentAt.size * HEALTHY_ENDPOINTS;
      const deadline = Date.now() + GRACE_MS;
      while (state.latencies.count < expected && Date.now() < deadline) await delay(100);
      stop();
      const delivered = Math.min(state.latencies.count, expected);
      const badSignatures = healthy.reduce((n, r) => n + r.badSignatures, 0);
      return {
        offered: round(eventsPerSecond * HEALTHY_ENDPOINTS, 0),
        // From the first publish to the last delivery (a backlog stretches it past the scenario's time).
        achieved: delivered === 0 ? 0 : round(delivered / ((state.lastAt - startedAt) / 1000), 0),
        ...state.latencies.summary(),
        errors: expected - delivered,
        handled: delivered,
        rss: sampler?.stop(),
        cpu: sampler?.cpu,
        deadAttempts: dead?.count ?? 0,
        note: [badSignatures ? `${badSignatures} bad signatures` : '', publishing.failed ? `${publishing.failed} publishes failed (${publishing.firstError})` : '']
          .filter(Boolean)
          .join('; '),
      };
    } finally {
      state.sentAt = new Map();
      for (const id of endpoints) await api('DELETE', `${platform.gateway}/api/v1/webhooks/${id}`, { token: tenant.apiKey }).catch(() => undefined);
      await Promise.all([...healthy, ...(dead ? [dead] : [])].map((r) => r.close()));
    }
  };

  const rows = [];
  try {
    log('fan-out: warm-up 3 s');
    await publishRound({ label: 'fan-out warm-up', eventsPerSecond: 20, secs: 3 });
    const eventsPerSecond = rate / HEALTHY_ENDPOINTS;
    log(`fan-out: ${seconds} s, ${eventsPerSecond} events/s to ${HEALTHY_ENDPOINTS} endpoints (${rate} deliveries/s offered)`);
    const alone = await publishRound({ label: 'fan-out', eventsPerSecond, secs: seconds, pids: platform.pids() });
    log(`  → ${alone.achieved} deliveries/s, p50 ${round(alone.p50)} ms, p99 ${round(alone.p99)} ms, undelivered ${alone.errors}`);
    rows.push({ scenario: `webhook fan-out, ${HEALTHY_ENDPOINTS} healthy endpoints`, ...alone });

    await platform.drain(60_000, log);
    log('fan-out: the same beside a dead endpoint');
    const beside = await publishRound({ label: 'fan-out + dead', eventsPerSecond, secs: seconds, pids: platform.pids(), withDead: true });
    log(`  → ${beside.achieved} healthy deliveries/s, p50 ${round(beside.p50)} ms, p99 ${round(beside.p99)} ms; dead endpoint got ${beside.deadAttempts} attempts`);
    rows.push({
      scenario: 'webhook fan-out beside a dead endpoint',
      ...beside,
      ceiling: alone.achieved,
      ratio: alone.achieved ? round(beside.achieved / alone.achieved, 2) : null,
      note: `healthy deliveries only; ${beside.deadAttempts} attempts reached the dead endpoint ${beside.note}`.trim(),
    });
  } finally {
    await kafka.close();
  }
  return rows;
}
