'use strict';
// The send scenario's ceilings, each in a process of its own like the gateway:
//   bare:  a bare Fastify route answering 200;
//   kafka: a bare Fastify route producing the same record as `POST /v1/send` (message.outbound envelope, same key)
//          through the platform's EventPublisher (same batching, acks: all) and answering once the broker acknowledged.
// Prints `listening <port>` on stdout when ready. Env: CEILING_MODE, KAFKA_BROKERS, KAFKA_TOPIC_PREFIX.
const path = require('node:path');

const DIST = path.resolve(__dirname, '../../../dist/libs');

async function publisher() {
  require('reflect-metadata');
  const { Module } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const { EventPublisher, KafkaModule } = require(path.join(DIST, 'kafka/src/index.js'));
  class CeilingModule {}
  Module({
    imports: [
      KafkaModule.forRootAsync({
        useFactory: () => ({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: 'bench-ceiling', namespace: process.env.KAFKA_TOPIC_PREFIX }),
      }),
    ],
  })(CeilingModule);
  const app = await NestFactory.createApplicationContext(CeilingModule, { logger: ['error'] });
  await app.init();
  const events = app.get(EventPublisher);
  await events.connect();
  return { events, EventPublisher };
}

async function main() {
  const fastify = require('fastify')({ logger: false });
  const mode = process.env.CEILING_MODE;
  if (mode === 'kafka') {
    const { events, EventPublisher } = await publisher();
    const { Topics, conversationKey, newId } = require(path.join(DIST, 'contracts/src/index.js'));
    fastify.post('/v1/send', async (req) => {
      const tenantId = 'ten_ceiling';
      const messageId = newId('msg');
      const data = { message_id: messageId, channel: 'whatsapp', from: null, to: req.body.to, content: { type: 'text', text: req.body.message }, origin: 'api', accepted_at: new Date().toISOString() };
      await events.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), conversationKey(tenantId, req.body.to), undefined, { timeoutMs: 2000 });
      return { status: 'sent', message_id: messageId };
    });
  } else {
    fastify.post('/v1/send', async () => ({ status: 'sent', message_id: 'msg_ceiling' }));
  }
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`listening ${fastify.server.address().port}\n`);
  process.on('SIGTERM', () => fastify.close().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
