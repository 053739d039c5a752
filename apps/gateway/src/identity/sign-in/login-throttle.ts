import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { GatewayConfig } from '../../config/gateway.config';
import { RedisService } from '../../redis/redis.service';
import { throttledWarning } from '../../redis/throttled-warning';

/** Whether an email may try to sign in now; `retryAfter` (seconds) when it is locked. */
export type LoginStanding = { locked: false } | { locked: true; retryAfter: number };

/**
 * Counts failed sign-ins per email in Redis, shared by every gateway instance (CONTRACT.md §12: 10 failures in 15 min
 * → 429). The window opens with the first failure and lasts `LOGIN_LOCK_WINDOW_SECONDS`; once the count reaches the
 * limit, every attempt for that email is refused until the window ends, a correct password included, so guessing
 * gains nothing. A successful sign-in before that clears the count. Fails open when Redis is away (sign-in still
 * needs the password), like the quotas.
 */
@Injectable()
export class LoginThrottle {
  private readonly warn = throttledWarning(new Logger(LoginThrottle.name));

  constructor(
    private readonly redis: RedisService,
    private readonly config: GatewayConfig,
  ) {}

  async standing(email: string): Promise<LoginStanding> {
    const key = this.key(email);
    try {
      const [[, count], [, ttl]] = ((await this.redis.client.multi().get(key).ttl(key).exec()) ?? []) as [unknown, unknown][];
      return standingOf(Number(count ?? 0), Number(ttl), this.config.LOGIN_FAILURES_BEFORE_LOCK);
    } catch (err) {
      this.warn(`login throttle not checked (failing open): ${String(err)}`);
      return { locked: false };
    }
  }

  async failed(email: string): Promise<void> {
    const key = this.key(email);
    try {
      // NX: the window starts at the first failure and is not pushed back by later ones.
      await this.redis.client.multi().incr(key).expire(key, this.config.LOGIN_LOCK_WINDOW_SECONDS, 'NX').exec();
    } catch (err) {
      this.warn(`failed login not counted: ${String(err)}`);
    }
  }

  async succeeded(email: string): Promise<void> {
    await this.redis.client.del(this.key(email)).catch((err: unknown) => this.warn(`login failures not cleared: ${String(err)}`));
  }

  /** Keyed by a hash of the normalised email, so Redis holds no addresses. */
  private key(email: string): string {
    return `${this.redis.prefix}login-failures:${createHash('sha256').update(normaliseEmail(email)).digest('hex')}`;
  }
}

/**
 * The standing of an email with `failures` counted in a window that ends in `ttlSeconds` (Redis TTL: -2 when the
 * counter is gone, -1 without expiry): locked from the `limit`-th failure until the window ends.
 */
export function standingOf(failures: number, ttlSeconds: number, limit: number): LoginStanding {
  if (!(failures >= limit) || ttlSeconds === -2) return { locked: false };
  return { locked: true, retryAfter: Math.max(1, ttlSeconds) };
}

/** Emails are compared case-insensitively and without surrounding spaces everywhere (stored lower-cased). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
