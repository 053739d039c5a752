import { Topics, type MessageOutboundEvent } from '@parley/contracts';
import { PrivateKafka, pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/**
 * Issue 9, the short version of `npm run chaos`'s broker outage: a send answered `sent` before the broker went down is
 * still queued after it comes back, and the same gateway (no restart) is ready and sends again. The broker is the
 * test's own; the shared one is never stopped.
 */
describe('gateway: POST /v1/send across a restart of its broker (a Kafka broker of its own)', () => {
  jest.setTimeout(240_000);
  let broker: PrivateKafka;
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let probe: { messages: MessageOutboundEvent[]; stop(): Promise<void> } | undefined;

  beforeAll(async () => {
    broker = await PrivateKafka.start('gwrestart');
    gw = await GatewayTestApp.start('gwrestart', { KAFKA_BROKERS: broker.brokers });
    account = await gw.signUp();
  });

  afterAll(async () => {
    await probe?.stop().catch(() => undefined);
    await gw?.close();
    await broker?.remove();
  });

  const send = (message: string) => gw.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+14155550123', message } });

  it('keeps what it answered sent through the outage and sends again once the broker is back', async () => {
    const before = await send('before the outage');
    expect(before.status).toBe(200);
    expect(before.body.status).toBe('sent');

    await broker.stopServer();
    expect((await send('during the outage')).status).toBe(503);
    await pollUntil(async () => (await gw.request('GET', '/health/ready')).status !== 200 || undefined, { description: 'readiness reporting the broker down' });

    await broker.startServer();
    const after = await pollUntil(
      async () => {
        const answer = await send('after the outage');
        return answer.status === 200 ? answer : undefined;
      },
      { description: 'a send answered sent after the restart', timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(after.body.status).toBe('sent');
    await pollUntil(async () => (await gw.request('GET', '/health/ready')).status === 200 || undefined, { description: 'readiness after the restart', timeoutMs: 60_000 });

    // Both accepted sends are on message.outbound of the restarted broker.
    probe = await broker.probe<MessageOutboundEvent>(`${gw.config.KAFKA_TOPIC_PREFIX}${Topics.MessageOutbound}`);
    const textOf = (id: string) => {
      const content = probe?.messages.find((m) => m.data.message_id === id)?.data.content;
      return content?.type === 'text' ? content.text : undefined;
    };
    await pollUntil(() => (textOf(before.body.message_id) && textOf(after.body.message_id)) || undefined, {
      description: 'both sends answered sent on message.outbound',
      timeoutMs: 60_000,
    });
    expect(textOf(before.body.message_id)).toBe('before the outage');
    expect(textOf(after.body.message_id)).toBe('after the outage');
  });
});
