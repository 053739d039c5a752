import { Topics, derivedId, type MessageOutboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

const TO = '+14155550199';

/** CONTRACT.md §4: `Idempotency-Key` on POST /v1/send, stored in Redis and shared by every instance. */
describe('gateway: idempotent sends (real Redis and Kafka)', () => {
  let gw: GatewayTestApp;
  let other: GatewayTestApp;
  let account: CreatedAccount;
  let outbound: TopicProbe<MessageOutboundEvent>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwidem');
    other = await gw.sibling({});
    outbound = await gw.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound);
    account = await gw.signUp();
  });

  afterAll(async () => {
    await outbound?.stop();
    await other?.close();
    await gw?.close();
  });

  const send = (body: Record<string, unknown>, key?: string, instance = gw, apiKey = account.api_key) =>
    instance.request('POST', '/v1/send', { token: apiKey, body: { channel: 'whatsapp', to: TO, ...body }, headers: key === undefined ? {} : { 'idempotency-key': key } });

  /**
   * How many message.outbound events carry `messageId`, once everything sent before now is on the topic: an unkeyed
   * marker to the same number shares the partition, so once it is seen, everything sent before it has been too.
   */
  const publishedCount = async (messageId: string) => {
    const marker = await send({ message: 'marker' });
    await pollUntil(() => outbound.find((m) => m.value.data.message_id === marker.body.message_id), { description: 'the marker' });
    return outbound.messages.filter((m) => m.value.data.message_id === messageId).length;
  };

  it('answers a retry with the same key and an equal body with the first answer, and sends once', async () => {
    const first = await send({ message: 'Your order is ready.' }, 'order-17');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'sent', message_id: derivedId('msg', account.tenant_id, 'order-17') });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // Equal as data (other key order), on another instance.
    const retry = await other.request('POST', '/v1/send', {
      token: account.api_key,
      rawBody: JSON.stringify({ message: 'Your order is ready.', to: TO, channel: 'whatsapp' }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'order-17' },
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');

    expect(await publishedCount(first.body.message_id)).toBe(1);
  });

  it('refuses the same key with another body with 409, and keeps the first answer', async () => {
    await send({ message: 'first' }, 'reused-key');
    const conflict = await send({ message: 'second' }, 'reused-key');
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get('content-type')).toContain('application/problem+json');
    expect(conflict.body).toMatchObject({ status: 409, type: 'https://parley.dev/problems/idempotency-key-reused' });
    expect((await send({ message: 'first' }, 'reused-key')).body.message_id).toBe(derivedId('msg', account.tenant_id, 'reused-key'));
  });

  it('gives 20 concurrent identical requests (on two instances) one message and equal answers', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send({ message: 'Concurrent hello' }, 'burst-1', i % 2 ? other : gw)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const expected = { status: 'sent', message_id: derivedId('msg', account.tenant_id, 'burst-1') };
    for (const answer of answers) expect(answer.body).toEqual(expected);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await publishedCount(expected.message_id)).toBe(1);
  });

  it('keeps keys per tenant', async () => {
    const stranger = await gw.signUp('Stranger');
    const mine = await send({ message: 'same key, other tenant' }, 'shared-key');
    const theirs = await send({ message: 'same key, other tenant' }, 'shared-key', gw, stranger.api_key);
    expect(theirs.status).toBe(200);
    expect(theirs.body.message_id).toBe(derivedId('msg', stranger.tenant_id, 'shared-key'));
    expect(theirs.body.message_id).not.toBe(mine.body.message_id);
  });

  it('refuses an invalid key with 400 naming the header, and validates the body before the key is taken', async () => {
    for (const key of ['k'.repeat(256), 'caf\u00e9']) {
      const answer = await send({ message: 'x' }, key);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('1 to 255 printable') }]);
    }
    const invalid = await send({ message: '' }, 'validated-first');
    expect(invalid.status).toBe(400);
    // The invalid attempt left nothing behind: the key is free for a valid body.
    expect((await send({ message: 'now valid' }, 'validated-first')).status).toBe(200);
  });
});
