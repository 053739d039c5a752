import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PUSH_VIEW_SCRIPT, billingPricesKey, billingViewKeys } from '@parley/contracts';
import { Redis } from 'ioredis';
import { BillingServiceConfig } from '../config/billing-service.config';
import { BalanceViewStore } from './balance-view.store';

/**
 * Keeps the gateway's view of each wallet in Redis (layout: libs/contracts billing-view.ts): the spendable balance and
 * free sends left, pushed after every change, and the price book. The gateway reserves against it atomically at send
 * time; a push also drops the reservation of the message just charged, whose hold is now in the balance.
 * A failed push is logged and overtaken by the next one: the view only lags, and a lagging view refuses, not overdraws.
 */
@Injectable()
export class BalanceView implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BalanceView.name);
  private readonly redis: Redis;

  constructor(
    private readonly store: BalanceViewStore,
    private readonly config: BillingServiceConfig,
  ) {
    this.redis = new Redis(config.REDIS_URL, { commandTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: (n) => Math.min(n * 100, 2000) });
    this.redis.on('error', (err) => this.logger.warn(`redis: ${err.message}`));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.pushPrices();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  async pushPrices(): Promise<void> {
    await this.guard('prices', async () => {
      const rows = await this.store.prices();
      const fields = Object.fromEntries(rows.map((r) => [r.field, r.micros]));
      await this.redis.hset(billingPricesKey(this.config.BILLING_VIEW_PREFIX), { ...fields, free_allowance: String(this.config.BILLING_FREE_ALLOWANCE) });
    });
  }

  /** Pushes the tenant's wallet as it is now; `chargedMessageId`: the message whose reservation it replaces. */
  async push(tenantId: string, chargedMessageId = ''): Promise<void> {
    await this.pushMany([{ tenantId, chargedMessageId }]);
  }

  /** Pushes the wallets of many tenants as they are now, read in one statement; each charged message drops its reservation. */
  async pushMany(pushes: readonly { tenantId: string; chargedMessageId?: string }[]): Promise<void> {
    const tenants = [...new Set(pushes.map((p) => p.tenantId))];
    if (!tenants.length) return;
    await this.guard(tenants.length === 1 ? tenants[0] : `${tenants.length} wallets`, async () => {
      const wallets = await this.store.wallets(tenants, this.config.BILLING_FREE_ALLOWANCE);
      const byTenant = new Map(wallets.map((w) => [w.tenant_id, w]));
      const charged = new Set<string>();
      const evals = pushes
        .filter((p) => {
          const key = `${p.tenantId} ${p.chargedMessageId ?? ''}`;
          return !charged.has(key) && charged.add(key);
        })
        .map((p) => {
          const wallet = byTenant.get(p.tenantId);
          const keys = billingViewKeys(this.config.BILLING_VIEW_PREFIX, p.tenantId);
          // Without a wallet there is nothing to show yet (version -2 never overwrites), only a reservation to drop.
          return this.redis.eval(PUSH_VIEW_SCRIPT, 2, keys.view, keys.pending, wallet?.version ?? '-2', wallet?.balance ?? '0', wallet?.free_left ?? '0', p.chargedMessageId ?? '');
        });
      await Promise.all(evals);
    });
  }

  private async guard(what: string, push: () => Promise<void>): Promise<void> {
    try {
      if (this.redis.status === 'wait') await this.redis.connect();
      await push();
    } catch (err) {
      this.logger.warn(`pushing the balance view (${what}) failed: ${String(err)}`);
    }
  }
}
