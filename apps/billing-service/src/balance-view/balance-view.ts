import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PUSH_VIEW_SCRIPT, billingPricesKey, billingViewKeys } from '@parley/contracts';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { BillingServiceConfig } from '../config/billing-service.config';

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
    @InjectDataSource() private readonly db: DataSource,
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
      const rows = (await this.db.query(`SELECT plan || ':' || category AS field, (unit_price * 1000000)::bigint::text AS micros FROM prices`)) as {
        field: string;
        micros: string;
      }[];
      const fields = Object.fromEntries(rows.map((r) => [r.field, r.micros]));
      await this.redis.hset(billingPricesKey(this.config.BILLING_VIEW_PREFIX), { ...fields, free_allowance: String(this.config.BILLING_FREE_ALLOWANCE) });
    });
  }

  /** Pushes the tenant's wallet as it is now; `chargedMessageId`: the message whose reservation it replaces. */
  async push(tenantId: string, chargedMessageId = ''): Promise<void> {
    await this.guard(tenantId, async () => {
      const [wallet] = (await this.db.query(
        `SELECT (balance * 1000000)::bigint::text AS balance, view_version::text AS version,
                greatest(0, $2::int - (SELECT coalesce(sum(quantity), 0) FROM usage_daily
                                        WHERE tenant_id = $1 AND day >= date_trunc('month', now() AT TIME ZONE 'UTC')::date AND category NOT IN ('voice_minute', 'llm_token')))::bigint::text AS free_left
           FROM wallets WHERE tenant_id = $1`,
        [tenantId, this.config.BILLING_FREE_ALLOWANCE],
      )) as { balance: string; version: string; free_left: string }[];
      const keys = billingViewKeys(this.config.BILLING_VIEW_PREFIX, tenantId);
      // Without a wallet there is nothing to show yet (version -2 never overwrites), only a reservation to drop.
      await this.redis.eval(PUSH_VIEW_SCRIPT, 2, keys.view, keys.pending, wallet?.version ?? '-2', wallet?.balance ?? '0', wallet?.free_left ?? '0', chargedMessageId);
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
