import { ProblemTypes } from '@parley/contracts';
import { PrivateKafka } from '@parley/testing';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/** CONTRACT.md §4: the queue must take a send within 2 s; the answer may take a little longer to travel. */
const ANSWER_BOUND_MS = 4000;

describe('gateway: POST /v1/send with the broker really stopped (a Kafka broker of its own)', () => {
  jest.setTimeout(240_000);
  let broker: PrivateKafka;
  let gw: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    broker = await PrivateKafka.start('gwoutage');
    gw = await GatewayTestApp.start('gwoutage', { KAFKA_BROKERS: broker.brokers });
    account = await gw.signUp();
  });

  afterAll(async () => {
    await gw?.close();
    await broker?.remove();
  });

  const send = async (headers: Record<string, string> = {}) => {
    const started = Date.now();
    const answer = await gw.request('POST', '/v1/send', { token: account.api_key, headers, body: { channel: 'whatsapp', to: '+14155550123', message: 'Hello' } });
    return { ...answer, elapsedMs: Date.now() - started };
  };

  it('answers sent while its broker runs, then 503 problem+json with Retry-After within the bound, never sent', async () => {
    const before = await send();
    expect(before.status).toBe(200);
    expect(before.body.status).toBe('sent');

    await broker.stopServer();

    const attempts: Record<string, string>[] = [{}, { 'idempotency-key': 'outage-1' }, { 'idempotency-key': 'outage-1' }, {}];
    for (const headers of attempts) {
      const answer = await send(headers);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 503,
        body: expect.objectContaining({ type: ProblemTypes.unavailable, status: 503, request_id: expect.any(String) }),
      });
      expect(answer.body.status).not.toBe('sent');
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.elapsedMs).toBeLessThan(ANSWER_BOUND_MS);
    }
  });
});
