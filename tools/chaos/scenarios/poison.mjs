// Chaos scenario: a poison event among good ones (issue 9). A `whatsapp.webhook` event whose provider notification is
// valid JSON but not a WhatsApp Business Account notification (a Facebook Page webhook routed to the wrong place)
// fails in messaging-service's handler every time. Published on one partition between good inbound notifications, it
// must land in `whatsapp.webhook.dlq` after bounded retries while the good events after it are still processed.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { cloudNotification, dist } from '../../dev/lib/platform.cjs';
import { ChaosPlatform } from '../lib/platform.cjs';
import { runId, seconds, waitFor } from '../lib/scenario-kit.cjs';

const require = createRequire(import.meta.url);

export const name = 'poison';
export const description = 'a poison event goes to its .dlq after bounded retries and does not stop its partition';
export const order = 4;

const GOOD_BEFORE = 5;
const GOOD_AFTER = 20;
const DEADLINE_MS = 60_000;
/** KafkaTransport's default `maxHandlerAttempts`: a poison event is tried this often, never more. */
const MAX_ATTEMPTS = 3;
const KEY = 'meta';

export async function run(ctx) {
  const { log, signal } = ctx;
  const { testInfra } = dist('testing');
  const { Kafka, logLevel } = require('kafkajs');
  const failures = [];
  const figures = {};
  let platform;
  let consumer;
  let producer;
  try {
    log('starting the stack (shared broker, a namespace of its own) ...');
    platform = await ChaosPlatform.startUnsupervised({ label: 'poison', log });
    const tenant = await platform.tenant('Chaos Poison');
    const topic = (t) => `${platform.namespace}${t}`;
    const kafka = new Kafka({ clientId: 'chaos-poison', brokers: testInfra().kafkaBrokers.split(','), logLevel: logLevel.NOTHING });

    // Probes: what messaging-service dead-lettered and which inbound messages it announced.
    const dead = [];
    const inbound = new Map();
    consumer = kafka.consumer({ groupId: `${platform.namespace}chaos-probe-${runId()}` });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic('whatsapp.webhook.dlq'), topic('message.inbound')], fromBeginning: true });
    let probing = false;
    consumer.on(consumer.events.GROUP_JOIN, () => (probing = true));
    await consumer.run({
      eachMessage: async ({ topic: t, message }) => {
        const at = performance.now();
        const value = JSON.parse(message.value.toString('utf8'));
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        if (t.endsWith('.dlq')) dead.push({ value, headers, at });
        else inbound.set(value.data?.provider_message_id, at);
      },
    });
    await waitFor(async () => probing, { timeoutMs: 30_000, intervalMs: 100, signal });

    const run_ = runId();
    const wamid = (i) => `wamid.chaospoison${run_}${i}`;
    const good = (i) =>
      webhookEvent(cloudNotification(tenant.channel, { from: `+1650559${String(i).padStart(4, '0')}`, id: wamid(i), text: `chaos ${run_} good ${i}`, customer: 'Chaos Customer' }));
    const poisonEvent = webhookEvent(JSON.stringify({ object: 'page', entry: [{ id: '1', time: Date.now(), messaging: [] }] }));
    const batch = [
      ...Array.from({ length: GOOD_BEFORE }, (_, i) => good(i)),
      poisonEvent,
      ...Array.from({ length: GOOD_AFTER }, (_, i) => good(GOOD_BEFORE + i)),
    ];
    producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    log(`publishing ${GOOD_BEFORE} good events, the poison one, then ${GOOD_AFTER} good ones on one partition (key "${KEY}")`);
    const published = performance.now();
    const records = await producer.send({
      topic: topic('whatsapp.webhook'),
      acks: -1,
      messages: batch.map((event) => ({ key: KEY, value: JSON.stringify(event), headers: { 'x-request-id': randomUUID(), 'event-type': 'whatsapp.webhook' } })),
    });
    figures.partition = records.map((r) => r.partition).join(',');

    const poisonDead = await waitFor(async () => dead.find((d) => d.value?.id === poisonEvent.id), { timeoutMs: DEADLINE_MS, intervalMs: 200, signal });
    const afterIds = Array.from({ length: GOOD_AFTER }, (_, i) => wamid(GOOD_BEFORE + i));
    await waitFor(async () => afterIds.every((id) => inbound.has(id)), { timeoutMs: DEADLINE_MS, intervalMs: 200, signal });
    const processedAfter = afterIds.filter((id) => inbound.has(id)).length;
    const processedBefore = Array.from({ length: GOOD_BEFORE }, (_, i) => wamid(i)).filter((id) => inbound.has(id)).length;
    const attempts = poisonDead ? Number(poisonDead.headers['dlq-attempts']) : NaN;

    Object.assign(figures, {
      'poison attempts': poisonDead ? attempts : 'not dead-lettered',
      retries: poisonDead ? attempts - 1 : 'n/a',
      'time to DLQ (s)': poisonDead ? seconds(poisonDead.at - published) : 'never',
      'DLQ error': poisonDead ? poisonDead.headers['dlq-error']?.slice(0, 80) : 'n/a',
      'good events before it processed': `${processedBefore}/${GOOD_BEFORE}`,
      'good events after it processed': `${processedAfter}/${GOOD_AFTER}`,
      'good events dead-lettered': dead.filter((d) => d.value?.id !== poisonEvent.id).length,
      'last good event after (s)': processedAfter ? seconds(Math.max(...afterIds.filter((id) => inbound.has(id)).map((id) => inbound.get(id))) - published) : 'never',
      'service exits': platform.exits().length,
    });
    if (!poisonDead) failures.push(`the poison event did not reach whatsapp.webhook.dlq within ${DEADLINE_MS / 1000} s`);
    else if (!(attempts >= 1 && attempts <= MAX_ATTEMPTS)) failures.push(`the poison event was tried ${poisonDead.headers['dlq-attempts']} times (bound ${MAX_ATTEMPTS})`);
    if (new Set(records.map((r) => r.partition)).size !== 1) failures.push('the events did not share one partition (the scenario proves nothing)');
    if (processedAfter < GOOD_AFTER) failures.push(`only ${processedAfter}/${GOOD_AFTER} good events after the poison one were processed`);
    if (processedBefore < GOOD_BEFORE) failures.push(`only ${processedBefore}/${GOOD_BEFORE} good events before the poison one were processed`);
    if (dead.some((d) => d.value?.id !== poisonEvent.id)) failures.push('a good event was dead-lettered');
    for (const exit of platform.exits()) failures.push(`a service exited: ${exit}`);
  } finally {
    await producer?.disconnect().catch(() => undefined);
    await consumer?.disconnect().catch(() => undefined);
    await platform?.stop().catch((err) => log(`  stopping the stack: ${err.message}`));
  }
  return { figures, failures };
}

/** A `whatsapp.webhook` envelope as the gateway publishes it (contracts: WhatsappWebhookData). */
function webhookEvent(rawBody) {
  const { newId } = dist('contracts');
  return {
    id: newId('evt'),
    type: 'whatsapp.webhook',
    version: 1,
    tenant_id: null,
    occurred_at: new Date().toISOString(),
    data: { provider: 'meta', channel_id: null, raw_body: rawBody, received_at: new Date().toISOString() },
  };
}
