import { Injectable, Logger } from '@nestjs/common';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RedisService } from '../redis/redis.service';

/** A first answer, kept to be given again. */
export interface StoredAnswer<T> {
  status: number;
  body: T;
}

type Entry<T> = { fingerprint: string; state: 'pending'; owner: string } | { fingerprint: string; state: 'done'; answer: StoredAnswer<T> };

/** Keys are kept for 24 h after their first answer (CONTRACT.md §4). */
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** Longer than any one attempt can take (a 2 s broker bound plus a sender check); a crashed owner's lock expires after it. */
const LOCK_TTL_MS = 15_000;
/** How long a concurrent duplicate waits for the first request's answer. */
const WAIT_MS = 10_000;
const POLL_MS = 20;

const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * Idempotency keys in Redis, shared by every gateway instance. The first request with a key takes it with SET NX
 * (a lock holding the body's fingerprint); its successful answer replaces the lock for 24 h. A duplicate with the
 * same body waits for that answer (polling until a deadline) and returns it; with another body it is refused (409).
 * A failed attempt (e.g. a 503) stores nothing and frees the key, so the client's retry runs again.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);

  constructor(private readonly redis: RedisService) {}

  async once<T>(tenantId: string, key: string, bodyFingerprint: string, run: () => Promise<StoredAnswer<T>>): Promise<{ answer: StoredAnswer<T>; replayed: boolean }> {
    const redisKey = `${this.redis.prefix}idem:${tenantId}:${createHash('sha256').update(key).digest('hex')}`;
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const lock = JSON.stringify({ fingerprint: bodyFingerprint, state: 'pending', owner: randomUUID() } satisfies Entry<T>);
      if (await this.store(() => this.redis.client.set(redisKey, lock, 'PX', LOCK_TTL_MS, 'NX'))) {
        return { answer: await this.runHolding(redisKey, lock, bodyFingerprint, run), replayed: false };
      }
      const raw = await this.store(() => this.redis.client.get(redisKey));
      if (raw === null) continue; // freed by a failed first attempt: take it ourselves
      const entry = JSON.parse(raw) as Entry<T>;
      if (entry.fingerprint !== bodyFingerprint) {
        throw new ProblemException(
          problem(409, ProblemTypes.idempotencyMismatch, 'Idempotency-Key Reused', 'This Idempotency-Key was already used with a different request body.'),
        );
      }
      if (entry.state === 'done') return { answer: entry.answer, replayed: true };
      if (Date.now() >= deadline) {
        throw new ProblemException(
          problem(409, ProblemTypes.conflict, 'Request In Progress', 'A request with this Idempotency-Key is still being processed; retry shortly.'),
          { 'retry-after': '1' },
        );
      }
      await sleep(POLL_MS);
    }
  }

  private async runHolding<T>(redisKey: string, lock: string, bodyFingerprint: string, run: () => Promise<StoredAnswer<T>>): Promise<StoredAnswer<T>> {
    let answer: StoredAnswer<T>;
    try {
      answer = await run();
    } catch (err) {
      await this.redis.client.eval(RELEASE_SCRIPT, 1, redisKey, lock).catch((e: unknown) => this.logger.warn(`idempotency lock not released (expires by itself): ${String(e)}`));
      throw err;
    }
    const done: Entry<T> = { fingerprint: bodyFingerprint, state: 'done', answer };
    // Not storing it is safe: a retry then re-runs, and a keyed send re-derives the same message id.
    await this.redis.client.set(redisKey, JSON.stringify(done), 'PX', RETENTION_MS).catch((e: unknown) => this.logger.warn(`idempotent answer not stored: ${String(e)}`));
    return answer;
  }

  /** A Redis call whose failure means the key cannot be honoured: 503, so the client retries with the same key. */
  private async store<R>(call: () => Promise<R>): Promise<R> {
    try {
      return await call();
    } catch (err) {
      this.logger.warn(`idempotency store unavailable: ${String(err)}`);
      throw new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', 'Idempotency keys cannot be checked right now; retry shortly.'), {
        'retry-after': '5',
      });
    }
  }
}
