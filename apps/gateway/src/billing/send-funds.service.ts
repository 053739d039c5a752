import { Injectable, Logger } from '@nestjs/common';
import {
  ProblemTypes,
  RELEASE_SEND_SCRIPT,
  RESERVE_SEND_SCRIPT,
  billingPricesKey,
  billingViewKeys,
  problem,
  smsSegments,
  type BillingCategory,
  type RichSendBody,
  type SendMessageBody,
} from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { GatewayConfig } from '../config/gateway.config';
import { RedisService } from '../redis/redis.service';
import { throttledWarning } from '../redis/throttled-warning';
import { TenantPlansService } from '../identity/tenants/tenant-plans.service';

/** The price book changes rarely; each instance re-reads it this often. */
const PRICES_TTL_MS = 5_000;
/** A template's category is not known here: it is reserved at the dearest template price (billing charges the real one). */
const TEMPLATE_CATEGORIES: BillingCategory[] = ['marketing', 'utility', 'authentication'];

/** The client with the two scripts defined: sent by their SHA (EVALSHA), not as 700 characters of Lua per send. */
type FundsRedis = RedisService['client'] & {
  reserveSend(view: string, pending: string, messageId: string, price: string, free: '0' | '1', freeAllowance: string): Promise<unknown>;
  releaseSend(view: string, pending: string, messageId: string): Promise<unknown>;
};

export interface Reservation {
  /** Gives the reservation back (the send was not queued). */
  release(): Promise<void>;
}

/**
 * Refuses a paid send the wallet cannot cover (CONTRACT.md §16) without a call to billing-service: one atomic Redis
 * script against the balance view billing-service pushes (libs/contracts billing-view.ts) reserves the send's price,
 * so concurrent sends cannot spend the same money; billing-service drops the reservation once it has held the price.
 */
@Injectable()
export class SendFundsService {
  private readonly logger = new Logger(SendFundsService.name);
  private readonly warn = throttledWarning(this.logger);
  private prices?: { read: Promise<Record<string, string>>; at: number };
  private readonly client: FundsRedis;

  constructor(
    private readonly config: GatewayConfig,
    private readonly redis: RedisService,
    private readonly plans: TenantPlansService,
  ) {
    redis.client.defineCommand('reserveSend', { numberOfKeys: 2, lua: RESERVE_SEND_SCRIPT });
    redis.client.defineCommand('releaseSend', { numberOfKeys: 2, lua: RELEASE_SEND_SCRIPT });
    this.client = redis.client as FundsRedis;
  }

  /** Reserves the send's price, or refuses with 402 `insufficient-funds`; null when nothing needed reserving. */
  async reserve(tenantId: string, messageId: string, body: SendMessageBody | RichSendBody): Promise<Reservation | null> {
    if (!this.config.BILLING_ENFORCED) return null;
    const keys = billingViewKeys(this.config.BILLING_VIEW_PREFIX, tenantId);
    let granted: unknown;
    try {
      const prices = await this.priceBook();
      // No price book: billing-service has never run against this Redis, and there is nothing to check against.
      if (!Object.keys(prices).length) return null;
      const plan = (await this.plans.planOf(tenantId)) ?? 'free';
      const unit = Math.max(0, ...this.categoriesOf(body).map((category) => Number(prices[`${plan}:${category}`] ?? 0)));
      // An SMS is billed per segment (CONTRACT.md §17), as billing-service will hold it.
      const price = body.channel === 'sms' && 'message' in body && typeof body.message === 'string' ? unit * smsSegments(body.message).segments : unit;
      granted = await this.client.reserveSend(keys.view, keys.pending, messageId, String(price), plan === 'free' ? '1' : '0', prices.free_allowance ?? '0');
    } catch (err) {
      // Redis away: sends go on (billing-service still holds what the wallet covers and marks the rest unfunded).
      this.warn(`balance check skipped, Redis failed: ${String(err)}`);
      return null;
    }
    if (granted !== 1) {
      throw new ProblemException(
        problem(402, ProblemTypes.insufficientFunds, 'Payment Required', 'The wallet’s balance does not cover this message’s price; nothing was sent. Top up the wallet and retry.'),
      );
    }
    return { release: () => this.release(keys, messageId) };
  }

  private async release(keys: { view: string; pending: string }, messageId: string): Promise<void> {
    await this.client.releaseSend(keys.view, keys.pending, messageId).catch((err: unknown) => this.warn(`releasing a reservation failed: ${String(err)}`));
  }

  private categoriesOf(body: SendMessageBody | RichSendBody): BillingCategory[] {
    const channel: string = body.channel;
    if (channel === 'sms' || channel === 'email') return [channel];
    return 'template' in body && body.template ? TEMPLATE_CATEGORIES : ['service'];
  }

  private priceBook(): Promise<Record<string, string>> {
    if (!this.prices || Date.now() - this.prices.at > PRICES_TTL_MS) {
      const read = this.redis.client.hgetall(billingPricesKey(this.config.BILLING_VIEW_PREFIX));
      // A failed read is not cached.
      read.catch(() => {
        this.prices = undefined;
      });
      this.prices = { read, at: Date.now() };
    }
    return this.prices.read;
  }
}
