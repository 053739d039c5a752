import { Logger } from '@nestjs/common';
import { Topics, type ChannelRecord, type WhatsappWebhookData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { PrivatePostgres, pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { FakeCloudApi } from './test/fake-cloud-api';
import { startMessagingService, type MessagingServiceUnderTest } from './test/messaging-service-under-test';

function inboundText(phoneNumberId: string, from: string, id: string, body: string) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '0',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Restart Customer' }, wa_id: from }],
              messages: [{ from, id, timestamp: '1749416383', type: 'text', text: { body } }],
            },
          },
        ],
      },
    ],
  };
}

/**
 * Issue 9: PostgreSQL restarted under the service. A consumer that cannot store must not commit: the notifications
 * that arrive while the database is down are retried as transient (never dead-lettered) and stored once it is back,
 * and the service becomes ready again on its own. The cluster is the test's own, never the machine's server.
 */
describe('messaging-service while its PostgreSQL restarts (a cluster of its own)', () => {
  jest.setTimeout(180_000);
  let pg: PrivatePostgres;
  let sandbox: FakeCloudApi;
  let service: MessagingServiceUnderTest;
  let channel: ChannelRecord;
  let baseUrl: string;
  const sharedPostgres = process.env.TEST_POSTGRES_URL;

  beforeAll(async () => {
    [pg, sandbox] = await Promise.all([PrivatePostgres.start('msrestart'), FakeCloudApi.start()]);
    // createTestDatabase (inside startMessagingService) creates the suite's database on this cluster.
    process.env.TEST_POSTGRES_URL = pg.url();
    service = await startMessagingService('pgrestart', { SANDBOX_URL: sandbox.url, SANDBOX_ENABLED: 'true' });
    const address = service.app.getHttpServer().address() as { port: number };
    baseUrl = `http://127.0.0.1:${address.port}`;
    channel = await service.kafka.rpc.request('channels.provision-sandbox', { tenant_id: `ten_${randomBytes(6).toString('hex')}` });
  });

  afterAll(async () => {
    await service?.close().catch(() => undefined);
    await sandbox?.close();
    await pg?.remove();
    if (sharedPostgres === undefined) delete process.env.TEST_POSTGRES_URL;
    else process.env.TEST_POSTGRES_URL = sharedPostgres;
  });

  const ready = async () => (await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined))?.status === 200;
  const publishInbound = (id: string, text: string) => {
    const data: WhatsappWebhookData = {
      provider: 'meta',
      channel_id: null,
      raw_body: JSON.stringify(inboundText(channel.phone_number_id!, '16505550100', id, text)),
      received_at: new Date().toISOString(),
    };
    return service.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.WhatsappWebhook, null, data), 'meta');
  };

  it('retries what it could not store while the database was down, loses and dead-letters nothing, and is ready again', async () => {
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const ids = Array.from({ length: 5 }, (_, i) => `wamid.restart${randomBytes(6).toString('hex')}${i}`);
    expect(await ready()).toBe(true);

    await pg.stopServer('fast');
    for (const [i, id] of ids.entries()) await publishInbound(id, `during the outage ${i}`);
    await pollUntil(async () => !(await ready()) || undefined, { description: 'readiness reporting the database down', timeoutMs: 20_000 });
    // The handler met the outage: a transient failure, retried rather than committed or dead-lettered.
    await pollUntil(() => warnings.mock.calls.some(([message]) => /whatsapp\.webhook.*transient/.test(String(message))) || undefined, {
      description: 'a transient handler failure during the outage',
      timeoutMs: 20_000,
    });
    expect(service.inbound.messages.filter((m) => ids.includes(m.value.data.provider_message_id))).toEqual([]);

    await pg.startServer();
    await pollUntil(() => ids.every((id) => service.inbound.find((m) => m.value.data.provider_message_id === id)) || undefined, {
      description: 'every notification of the outage stored and announced',
      timeoutMs: 60_000,
    });
    await pollUntil(async () => (await ready()) || undefined, { description: 'readiness after the restart', timeoutMs: 30_000 });

    for (const id of ids) expect(service.inbound.messages.filter((m) => m.value.data.provider_message_id === id)).toHaveLength(1);
    const stored = await service.sql.query(`SELECT count(*)::int AS n FROM messages WHERE provider_message_id = ANY($1)`, [ids]);
    expect(stored[0].n).toBe(ids.length);
    expect(service.deadLetters.messages).toEqual([]);
    warnings.mockRestore();
  });
});
