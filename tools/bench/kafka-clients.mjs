#!/usr/bin/env node
// Issue 33 point 2: what the Kafka client itself costs per message, kafkajs (the platform's, with libs/kafka's patches
// when dist/ is built) against
// @platformatic/kafka (pure JavaScript, maintained), on the local broker. No stack: one process per client and phase,
// so each process's CPU (utime + stime) is that client's alone.
//
//   node tools/kafka/kafka.mjs start && node tools/bench/kafka-clients.mjs [--messages 20000]
//
// Each client, in its own process:
// - produce: the platform's envelopes (a message.status as messaging-service publishes it, ~450 bytes of JSON, keyed by
//   conversation, its type and request id as headers), acks all, no compression, as EventPublisher sends them: in
//   flushes of `--batch` records (default 8: what a gateway flush carries at a few hundred sends a second), 16 flushes
//   in flight;
// - consume: the same records read back by a new group from the earliest offset, each value parsed as JSON (as the
//   platform's transport does), until all are seen; offsets committed once at the end.
// Prints CPU ms per 1,000 records for each (lower is better) and the wall time. Not a test.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const PATCHES = path.resolve(import.meta.dirname, '../../dist/libs/kafka/src/kafkajs-patches.js');
const BROKER = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
const PARTITIONS = 4;

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '20000' },
    batch: { type: 'string', default: '8' },
    role: { type: 'string' },
    client: { type: 'string' },
    topic: { type: 'string' },
  },
});
const MESSAGES = Number(values.messages);
const BATCH = Number(values.batch);
const IN_FLIGHT = 16;

function envelope(i) {
  const tenant = `ten_${String(i % 50).padStart(26, '0')}`;
  return {
    key: `${tenant}:+4915120${String(i % 10_000).padStart(6, '0')}`,
    headers: { 'x-request-id': randomUUID(), 'x-event-type': 'message.status' },
    value: JSON.stringify({
      id: `evt_${String(i).padStart(26, '0')}`,
      type: 'message.status',
      version: 1,
      tenant_id: tenant,
      occurred_at: new Date().toISOString(),
      data: { message_id: `msg_${String(i).padStart(26, '0')}`, channel: 'whatsapp', status: 'delivered', to: '+4915120000000', at: new Date().toISOString(), error: null },
    }),
  };
}

const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** Runs `work(count)` and reports { cpuMs, wallMs } of this process. */
async function measured(work) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await work();
  return { cpuMs: cpuMs(cpu), wallMs: performance.now() - t0 };
}

async function inFlight(total, send) {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) {
        const from = next;
        next += BATCH;
        await send(from, Math.min(total, from + BATCH));
      }
    }),
  );
}

const clients = {
  kafkajs: {
    async produce(topic) {
      const { Kafka, CompressionTypes, Partitioners, logLevel } = require('kafkajs');
      const kafka = new Kafka({ clientId: 'bench-kafkajs', brokers: [BROKER], logLevel: logLevel.ERROR });
      const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [envelope(-1)] }); // metadata and connection first
      const result = await measured(() =>
        inFlight(MESSAGES, (from, to) =>
          producer.sendBatch({ acks: -1, timeout: 10_000, compression: CompressionTypes.None, topicMessages: [{ topic, messages: range(from, to).map(envelope) }] }),
        ),
      );
      await producer.disconnect();
      return result;
    },
    async consume(topic) {
      const { Kafka, logLevel } = require('kafkajs');
      const kafka = new Kafka({ clientId: 'bench-kafkajs', brokers: [BROKER], logLevel: logLevel.ERROR });
      const consumer = kafka.consumer({ groupId: `bench-kafkajs-${randomUUID()}`, maxWaitTimeInMs: 100 });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      let seen = 0;
      let done;
      const all = new Promise((resolve) => (done = resolve));
      let cpu;
      let t0;
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: PARTITIONS,
        eachBatch: async ({ batch, resolveOffset }) => {
          if (!cpu) {
            cpu = process.cpuUsage();
            t0 = performance.now();
          }
          for (const message of batch.messages) {
            JSON.parse(message.value.toString('utf8'));
            resolveOffset(message.offset);
            if (++seen >= MESSAGES + 1) done();
          }
        },
      });
      await all;
      const result = { cpuMs: cpuMs(cpu), wallMs: performance.now() - t0 };
      await consumer.disconnect();
      return result;
    },
  },
  platformatic: {
    async produce(topic) {
      const { Producer, stringSerializers } = await import('@platformatic/kafka');
      const producer = new Producer({ clientId: 'bench-platformatic', bootstrapBrokers: [BROKER], serializers: stringSerializers, acks: -1, autocreateTopics: false });
      const record = (e) => ({ topic, key: e.key, value: e.value, headers: new Map(Object.entries(e.headers)) });
      await producer.send({ messages: [record(envelope(-1))] });
      const result = await measured(() => inFlight(MESSAGES, (from, to) => producer.send({ messages: range(from, to).map((i) => record(envelope(i))) })));
      await producer.close();
      return result;
    },
    async consume(topic) {
      const { Consumer, stringDeserializers } = await import('@platformatic/kafka');
      const consumer = new Consumer({ groupId: `bench-platformatic-${randomUUID()}`, clientId: 'bench-platformatic', bootstrapBrokers: [BROKER], deserializers: stringDeserializers, maxWaitTime: 100 });
      const stream = await consumer.consume({ topics: [topic], mode: 'earliest', autocommit: false });
      let seen = 0;
      let cpu;
      let t0;
      for await (const message of stream) {
        if (!cpu) {
          cpu = process.cpuUsage();
          t0 = performance.now();
        }
        JSON.parse(message.value);
        if (++seen >= MESSAGES + 1) break;
      }
      const result = { cpuMs: cpuMs(cpu), wallMs: performance.now() - t0 };
      await stream.close();
      await consumer.close(true);
      return result;
    },
  },
};

const range = (from, to) => Array.from({ length: to - from }, (_, k) => from + k);

if (values.role) {
  // a child: one client, one phase; kafkajs as the platform runs it
  if (values.client === 'kafkajs' && existsSync(PATCHES)) require(PATCHES);
  const result = await clients[values.client][values.role](values.topic);
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

function child(client, role, topic) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [import.meta.filename, '--role', role, '--client', client, '--topic', topic, '--messages', String(MESSAGES), '--batch', String(BATCH)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${client} ${role} exited ${code}`))));
  });
}

const { Kafka, logLevel } = require('kafkajs');
const admin = new Kafka({ clientId: 'bench-admin', brokers: [BROKER], logLevel: logLevel.ERROR }).admin();
await admin.connect();
const per1000 = (r) => ((1000 * r.cpuMs) / MESSAGES).toFixed(1);
console.log(`${MESSAGES} envelopes of ~${Buffer.byteLength(envelope(0).value)} bytes, flushes of ${BATCH}, ${IN_FLIGHT} in flight, ${PARTITIONS} partitions, broker ${BROKER}`);
console.log('| client | produce CPU ms / 1,000 | produce wall s | consume CPU ms / 1,000 | consume wall s |');
console.log('| --- | --: | --: | --: | --: |');
for (const client of Object.keys(clients)) {
  const topic = `bench-clients-${client}-${randomUUID()}`;
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: -1 }] });
  try {
    const produced = await child(client, 'produce', topic);
    const consumed = await child(client, 'consume', topic);
    console.log(`| ${client} | ${per1000(produced)} | ${(produced.wallMs / 1000).toFixed(1)} | ${per1000(consumed)} | ${(consumed.wallMs / 1000).toFixed(1)} |`);
  } finally {
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  }
}
await admin.disconnect();
