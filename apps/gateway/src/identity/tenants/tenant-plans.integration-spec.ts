import { getDataSourceToken } from '@nestjs/typeorm';
import type { CreatedAccount } from '@parley/contracts';
import { Repository, type DataSource } from 'typeorm';
import { TenantEntity } from '../accounts/tenant.entity';
import { GatewayTestApp } from '../../test/gateway-test-app';
import { TenantPlansService } from './tenant-plans.service';

/** The plan lookup behind every authenticated request's quota (real PostgreSQL): one read per burst, never stale. */
describe('gateway: tenant plan lookup', () => {
  let gw: GatewayTestApp;
  let plans: TenantPlansService;
  let db: DataSource;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwplans');
    plans = gw.app.get(TenantPlansService);
    db = gw.app.get<DataSource>(getDataSourceToken());
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await gw?.close();
  });

  /** A tenant whose plan this instance has not cached (sign-up primes the cache; the sibling never saw it). */
  const uncachedTenant = async (): Promise<{ account: CreatedAccount; fresh: TenantPlansService; sibling: GatewayTestApp }> => {
    const account = await gw.signUp();
    const sibling = await gw.sibling({});
    return { account, fresh: sibling.app.get(TenantPlansService), sibling };
  };

  it('answers a burst of requests for a plan not yet cached from one database read', async () => {
    const { account, fresh, sibling } = await uncachedTenant();
    try {
      const reads = jest.spyOn(Repository.prototype, 'findOne');
      const answers = await Promise.all(Array.from({ length: 20 }, () => fresh.planOf(account.tenant_id)));
      expect(answers).toEqual(Array.from({ length: 20 }, () => 'free'));
      expect(reads.mock.contexts.filter((repo) => (repo as Repository<object>).target === TenantEntity)).toHaveLength(1);
    } finally {
      await sibling.close();
    }
  });

  it('does not cache a read that a plan change overtook', async () => {
    const { account, fresh, sibling } = await uncachedTenant();
    try {
      // Hold the plan read's answer until the change is done: the read saw the old plan.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const findOne = Repository.prototype.findOne;
      jest.spyOn(Repository.prototype, 'findOne').mockImplementation(async function (this: Repository<object>, ...args: Parameters<Repository<object>['findOne']>) {
        const row = await findOne.apply(this, args);
        if (this.target === TenantEntity) await held;
        return row;
      });
      const inFlight = fresh.planOf(account.tenant_id);
      expect(await fresh.setPlan(account.tenant_id, 'pro')).toBe(true);
      release();
      await inFlight;
      expect(await fresh.planOf(account.tenant_id)).toBe('pro');
    } finally {
      await sibling.close();
    }
  });

  it('reads a plan again for a tenant that does not exist', async () => {
    expect(await plans.planOf('ten_missing')).toBeNull();
    const reads = jest.spyOn(db, 'getRepository');
    expect(await plans.planOf('ten_missing')).toBeNull();
    expect(reads.mock.calls.filter(([target]) => target === TenantEntity)).toHaveLength(1);
  });
});
