import { getDataSourceToken } from '@nestjs/typeorm';
import type { CreatedAccount } from '@parley/contracts';
import { SelectQueryBuilder, type DataSource } from 'typeorm';
import { GatewayTestApp } from '../../test/gateway-test-app';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';

/** The API-key lookup behind every authenticated request (real PostgreSQL): one read per burst, never a stale answer. */
describe('gateway: API-key lookup', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let apiKeys: ApiKeysService;
  let db: DataSource;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwkeylookup');
    account = await gw.signUp();
    apiKeys = gw.app.get(ApiKeysService);
    db = gw.app.get<DataSource>(getDataSourceToken());
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await gw?.close();
  });

  const newKey = async () => (await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'burst' } })).body as { id: string; api_key: string };

  it('answers a burst of requests with a key not yet cached from one database read', async () => {
    const key = await newKey();
    const reads = jest.spyOn(db, 'getRepository');
    const tenants = await Promise.all(Array.from({ length: 20 }, () => apiKeys.authenticate(key.api_key)));
    expect(tenants).toEqual(Array.from({ length: 20 }, () => account.tenant_id));
    expect(reads.mock.calls.filter(([target]) => target === ApiKeyEntity)).toHaveLength(1);
  });

  it('does not cache a read that a revocation overtook', async () => {
    const key = await newKey();
    // Hold the key read's answer until the revocation is done: the read saw the key live.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const getRawOne = SelectQueryBuilder.prototype.getRawOne;
    jest.spyOn(SelectQueryBuilder.prototype, 'getRawOne').mockImplementation(async function (this: SelectQueryBuilder<object>) {
      const row: unknown = await getRawOne.call(this);
      if (this.getQuery().includes('key_hash')) await held;
      return row;
    });
    const inFlight = apiKeys.authenticate(key.api_key);
    await apiKeys.revoke(account.tenant_id, key.id);
    release();
    await inFlight;
    expect(await apiKeys.authenticate(key.api_key)).toBeNull();
  });
});
