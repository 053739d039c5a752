import { loadConfig } from '@parley/service-kit';
import { testInfra, uniqueName } from '@parley/testing';
import { GatewayConfig } from '../config/gateway.config';
import { RedisService } from '../redis/redis.service';
import { IdempotencyService } from './idempotency.service';

/** The store's rules on a real Redis, including what HTTP tests cannot easily provoke (a failed first attempt). */
describe('IdempotencyService (real Redis)', () => {
  let redis: RedisService;
  let service: IdempotencyService;

  beforeAll(() => {
    redis = new RedisService(loadConfig(GatewayConfig, { REDIS_URL: testInfra().redisUrl, REDIS_KEY_PREFIX: `${uniqueName('idem')}:` }));
    service = new IdempotencyService(redis);
  });

  afterAll(async () => {
    await redis.onApplicationShutdown();
  });

  it('stores nothing for a failed attempt (a 503), so the retry runs again', async () => {
    const failure = new Error('broker unavailable');
    await expect(service.once('ten_A', 'k1', 'fp', () => Promise.reject(failure))).rejects.toBe(failure);
    let runs = 0;
    const retry = await service.once('ten_A', 'k1', 'fp', async () => ({ status: 200, body: { run: ++runs } }));
    expect(retry).toEqual({ answer: { status: 200, body: { run: 1 } }, replayed: false });
    const replay = await service.once('ten_A', 'k1', 'fp', async () => ({ status: 200, body: { run: ++runs } }));
    expect(replay).toEqual({ answer: { status: 200, body: { run: 1 } }, replayed: true });
    expect(runs).toBe(1);
  });

  it('makes a concurrent duplicate wait for the first answer, and a failed first one hands over to it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = service.once('ten_A', 'k2', 'fp', async () => {
      await gate;
      throw new Error('first attempt failed');
    });
    let secondRan = false;
    const second = service.once('ten_A', 'k2', 'fp', async () => {
      secondRan = true;
      return { status: 200, body: 'second' };
    });
    release();
    await expect(first).rejects.toThrow('first attempt failed');
    await expect(second).resolves.toEqual({ answer: { status: 200, body: 'second' }, replayed: false });
    expect(secondRan).toBe(true);
  });

  it('sets a 24 h expiry on a stored answer', async () => {
    await service.once('ten_A', 'k3', 'fp', async () => ({ status: 200, body: 'ok' }));
    const keys = await redis.client.keys(`${redis.prefix}idem:ten_A:*`);
    const ttls = await Promise.all(keys.map((k) => redis.client.pttl(k)));
    expect(ttls.length).toBeGreaterThan(0);
    for (const ttl of ttls) {
      expect(ttl).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
      expect(ttl).toBeLessThanOrEqual(24 * 3600 * 1000);
    }
  });
});
