// Scenario 4, outbound to the provider: `message.outbound` events published to Kafka at a fixed rate (as the gateway
// does for each send), from the tenant's many sandbox numbers (no per-number limit) to many customers; counted where
// they land, in the sandbox's own table. Latency runs from `accepted_at` to the sandbox storing the message.
import { randomBytes } from 'node:crypto';
import { dist } from '../lib/platform.mjs';
import { Latencies, RssSampler, delay, openLoop, progress, round } from '../lib/measure.mjs';

const CUSTOMERS = 10_000;
const GRACE_MS = 15_000;

export async function outboundScenario({ platform, seconds, rate, numbers, log }) {
  const { EventPublisher } = dist('kafka');
  const { Topics, conversationKey, newId } = dist('contracts');
  const { KafkaHarness } = dist('testing');
  const kafka = await KafkaHarness.start(platform.namespace);
  const tenant = await platform.tenant('bench outbound');
  const channels = await platform.sandboxChannels(tenant, numbers);

  const landed = async (run) =>
    Number((await platform.query(`SELECT count(*) AS n FROM sandbox.messages WHERE direction = 'outbound' AND body LIKE $1`, [`outbound ${run} %`]))[0].n);

  const publishRound = async (label, perSecond, secs, pids) => {
    const run = randomBytes(4).toString('hex');
    const sampler = pids ? new RssSampler(pids) : null;
    let published = 0;
    let seen = 0;
    const poll = setInterval(() => void landed(run).then((n) => (seen = n), () => undefined), 1000);
    const stop = progress(label, () => `${published} published, ${seen} at the provider`);
    const startedAt = Date.now();
    const publishing = await openLoop({
      rate: perSecond,
      seconds: secs,
      fire: async (i) => {
        const channel = channels[i % channels.length];
        const to = `+49152${String(30_000_000 + ((i * 7919) % CUSTOMERS))}`;
        const acceptedAt = new Date();
        const data = {
          message_id: newId('msg'),
          channel: 'whatsapp',
          from: channel.phone_number,
          to,
          content: { type: 'text', text: `outbound ${run} ${i} ${acceptedAt.getTime()}` },
          origin: 'api',
          accepted_at: acceptedAt.toISOString(),
        };
        await kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenant.tenantId, data), conversationKey(tenant.tenantId, to), undefined, { timeoutMs: 30_000 });
        published++;
      },
    });
    const deadline = Date.now() + GRACE_MS;
    while ((seen = await landed(run)) < published && Date.now() < deadline) await delay(500);
    clearInterval(poll);
    stop();
    const rss = sampler?.stop();
    const rows = await platform.query(`SELECT body, created_at FROM sandbox.messages WHERE direction = 'outbound' AND body LIKE $1`, [`outbound ${run} %`]);
    const latencies = new Latencies();
    let lastAt = startedAt;
    for (const r of rows) {
      const at = r.created_at.getTime();
      latencies.add(at - Number(r.body.split(' ')[3]));
      if (at > lastAt) lastAt = at;
    }
    return {
      offered: perSecond,
      achieved: rows.length === 0 ? 0 : round(rows.length / ((lastAt - startedAt) / 1000), 0),
      ...latencies.summary(),
      errors: published - rows.length + publishing.failed,
      handled: rows.length,
      rss,
      cpu: sampler?.cpu,
      note: [
        publishing.failed ? `${publishing.failed} publishes failed (${publishing.firstError})` : '',
        published - rows.length > 0 ? `${published - rows.length} not at the provider ${GRACE_MS / 1000} s after the last publish` : '',
      ]
        .filter(Boolean)
        .join('; '),
    };
  };

  try {
    log('outbound: warm-up 3 s at 20/s');
    await publishRound('outbound warm-up', 20, 3);
    log(`outbound: ${seconds} s at ${rate}/s from ${channels.length} numbers to ${CUSTOMERS} customers`);
    const row = await publishRound('outbound', rate, seconds, platform.pids());
    log(`  → ${row.achieved}/s, p50 ${round(row.p50)} ms, p99 ${round(row.p99)} ms, missing ${row.errors}`);
    return [{ scenario: 'outbound to the provider', ...row }];
  } finally {
    await kafka.close();
  }
}
