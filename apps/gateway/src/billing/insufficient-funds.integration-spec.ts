import { Topics, billingPricesKey, billingViewKeys, newId, type MessageOutboundEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { RedisService } from '../redis/redis.service';
import { SendFundsService } from './send-funds.service';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

const ADMIN_TOKEN = 'test-admin-token-for-funds';
/** Prices as billing-service publishes them, in millionths: a pro text message costs 0.004. */
const PRICES = { 'pro:sms': '7500', 'pro:service': '4000', 'pro:marketing': '40000', 'pro:utility': '15000', 'pro:authentication': '15000', 'free:service': '5000', free_allowance: '2' };

/**
 * A paid send the wallet cannot cover is refused with 402 (CONTRACT.md §16), checked against the balance view
 * billing-service keeps in Redis (written here as billing-service would), never by a call per send.
 */
describe('gateway: paid sends need the money (402 insufficient-funds)', () => {
  let gw: GatewayTestApp;
  let redis: RedisService;
  let outbound: TopicProbe<MessageOutboundEvent>;
  const prefix = `test:${newId('evt')}:`;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwfunds', { ADMIN_TOKEN, BILLING_ENFORCED: 'true', BILLING_VIEW_PREFIX: prefix });
    redis = gw.app.get(RedisService);
    await redis.client.hset(billingPricesKey(prefix), PRICES);
    outbound = await gw.kafka.probe(Topics.MessageOutbound);
  });

  afterAll(async () => {
    await outbound?.stop();
    await gw?.close();
  });

  const send = (account: CreatedAccount, body: Record<string, unknown> = {}) =>
    gw.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+447911123456', message: 'Order A-17 is ready.', ...body } });
  const proAccount = async (balanceMicros: number) => {
    const account = await gw.signUp();
    const plan = await gw.request('PATCH', `/admin/v1/tenants/${account.tenant_id}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: { plan: 'pro' } });
    expect(plan.status).toBe(200);
    await redis.client.hset(billingViewKeys(prefix, account.tenant_id).view, { version: '1', balance: String(balanceMicros), free_left: '0' });
    return account;
  };

  it('200 concurrent sends on a wallet that pays for 100: 100 are queued, 100 refused, none overdrawn', async () => {
    const account = await proAccount(100 * 4000);
    const answers = await Promise.all(Array.from({ length: 200 }, () => send(account)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 402)).toHaveLength(100);
    const refused = answers.find((a) => a.status === 402)!;
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 402, type: 'https://parley.dev/problems/insufficient-funds' });

    const keys = billingViewKeys(prefix, account.tenant_id);
    expect(await redis.client.hget(keys.view, 'pending')).toBe(String(100 * 4000));
    // Only the accepted sends reached message.outbound; a refused one sent nothing.
    const accepted = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.message_id as string));
    await pollUntil(() => outbound.messages.filter((m) => m.value.tenant_id === account.tenant_id).length >= 100 || undefined, {
      description: '100 sends on message.outbound',
      timeoutMs: 20_000,
    });
    const published = outbound.messages.filter((m) => m.value.tenant_id === account.tenant_id).map((m) => m.value.data.message_id);
    expect(new Set(published)).toEqual(accepted);
    expect(Object.keys(await redis.client.hgetall(keys.pending)).sort()).toEqual([...accepted].sort());
  });

  it('reserves an SMS per segment: 200 GSM-7 characters take two prices', async () => {
    const account = await proAccount(2 * 7500);
    const long = await send(account, { channel: 'sms', to: '+447911123457', message: 'a'.repeat(200) });
    expect(long.status).toBe(200);
    expect(await redis.client.hget(billingViewKeys(prefix, account.tenant_id).view, 'pending')).toBe('15000');
    expect((await send(account, { channel: 'sms', to: '+447911123457', message: 'hi' })).status).toBe(402);
  });

  it('reserves a retried idempotent send once', async () => {
    const account = await proAccount(4000);
    const key = newId('evt');
    const keyed = () => gw.request('POST', '/v1/send', { token: account.api_key, headers: { 'idempotency-key': key }, body: { channel: 'whatsapp', to: '+447911123456', message: 'hi' } });
    const first = await keyed();
    expect(first.status).toBe(200);
    expect(await keyed()).toMatchObject({ status: 200, body: { message_id: first.body.message_id } });
    expect(await redis.client.hget(billingViewKeys(prefix, account.tenant_id).view, 'pending')).toBe('4000');
    expect((await send(account)).status).toBe(402);
  });

  it('on free: the monthly allowance first, then paid sends against the balance', async () => {
    const account = await gw.signUp();
    // billing-service has not seen this tenant yet: no view, the whole allowance (2) left, no money.
    expect((await send(account)).status).toBe(200);
    expect((await send(account)).status).toBe(200);
    expect((await send(account)).status).toBe(402);
    await redis.client.hset(billingViewKeys(prefix, account.tenant_id).view, { version: '3', balance: '5000', free_left: '0' });
    // 5000 covers one more free-plan message (0.005); the two free ones are still pending, not charged twice.
    expect((await send(account)).status).toBe(200);
    expect((await send(account)).status).toBe(402);
  });

  it('gives a reservation back when the send is not queued: the next send is paid from it', async () => {
    const account = await proAccount(4000);
    const funds = gw.app.get(SendFundsService);
    const body = { channel: 'whatsapp' as const, to: '+447911123456', message: 'hi' };
    const reservation = await funds.reserve(account.tenant_id, newId('msg'), body);
    expect(reservation).not.toBeNull();
    expect((await send(account)).status).toBe(402);
    await reservation!.release();
    expect(await redis.client.hget(billingViewKeys(prefix, account.tenant_id).view, 'pending')).toBe('0');
    expect((await send(account)).status).toBe(200);
  });
});
