import { Injectable, Logger } from '@nestjs/common';
import { isIP } from 'node:net';
import { GatewayConfig } from '../config/gateway.config';
import { RedisService } from '../redis/redis.service';
import { throttledWarning } from '../redis/throttled-warning';

/** A per-address allowance: `limit` requests per fixed window of `windowSeconds`. */
export interface AddressLimit {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** The outcome for one request; `retryAfter` (seconds to the window's end) when it is refused. */
export type AddressVerdict = { allowed: true } | { allowed: false; retryAfter: number };

/** Loopback addresses: exempt outside production, so local tools and tests are never throttled. */
export function isLoopback(address: string): boolean {
  const ip = address.startsWith('::ffff:') ? address.slice(7) : address;
  return ip === '::1' || (isIP(ip) === 4 && ip.startsWith('127.'));
}

/**
 * Fixed-window counters per client address in Redis (shared by every instance), guarding the routes anyone can call
 * without a credential: account creation and `/oauth/token` (CONTRACT.md §2), and failed credentials at provider
 * intake. Fails open when Redis is away.
 */
@Injectable()
export class AddressRateLimiter {
  private readonly warn = throttledWarning(new Logger(AddressRateLimiter.name));

  constructor(
    private readonly redis: RedisService,
    private readonly config: GatewayConfig,
  ) {}

  /** Whether the address is still within its allowance, without counting this request. */
  async check(rule: AddressLimit, address: string, now = Date.now()): Promise<AddressVerdict> {
    if (!this.config.isProduction && isLoopback(address)) return { allowed: true };
    const { key, windowEnd } = this.window(rule, address, now);
    try {
      if (Number((await this.redis.client.get(key)) ?? 0) < rule.limit) return { allowed: true };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(windowEnd - now / 1000)) };
    } catch (err) {
      this.warn(`${rule.name} limit of ${address} not checked (failing open): ${String(err)}`);
      return { allowed: true };
    }
  }

  async hit(rule: AddressLimit, address: string, now = Date.now()): Promise<AddressVerdict> {
    if (!this.config.isProduction && isLoopback(address)) return { allowed: true };
    const { key, windowEnd } = this.window(rule, address, now);
    try {
      const results = await this.redis.client.multi().incr(key).expireat(key, windowEnd).exec();
      const [err, count] = results?.[0] ?? [new Error('transaction discarded'), null];
      if (err) throw err;
      if (Number(count) <= rule.limit) return { allowed: true };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil(windowEnd - now / 1000)) };
    } catch (err) {
      this.warn(`${rule.name} limit of ${address} not checked (failing open): ${String(err)}`);
      return { allowed: true };
    }
  }

  private window(rule: AddressLimit, address: string, now: number): { key: string; windowEnd: number } {
    const window = Math.floor(now / 1000 / rule.windowSeconds);
    return { key: `${this.redis.prefix}ratelimit:${rule.name}:${address}:${window}`, windowEnd: (window + 1) * rule.windowSeconds };
  }
}
