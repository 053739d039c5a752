import type { Problem } from '@parley/contracts';

/** Thrown by a request-reply handler to answer the caller with a problem (e.g. 404, 400). */
export class RpcProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = 'RpcProblemError';
  }
}

/** A request-reply call got no answer in time (the owning service is down or overloaded). */
export class RpcTimeoutError extends Error {
  constructor(readonly pattern: string, readonly timeoutMs: number) {
    super(`no reply to ${pattern} within ${timeoutMs} ms`);
    this.name = 'RpcTimeoutError';
  }
}

/** The broker did not acknowledge a publish in time: the message is not known to be durable. */
export class PublishTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the broker did not acknowledge within ${timeoutMs} ms`);
    this.name = 'PublishTimeoutError';
  }
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: connection exceptions, admin/crash shutdown, cannot connect now, serialization/deadlock
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  '57P01',
  '57P02',
  '57P03',
  '40001',
  '40P01',
  '53300',
]);

/**
 * Errors that heal by themselves (database or broker unreachable, a deadlock): retried without limit and never
 * dead-lettered, so an outage delays work but loses none. Anything else is a poison message after a few attempts.
 */
export function isTransientError(err: unknown): boolean {
  for (const e of wrappedErrors(err)) {
    if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
    if (e.retriable === true) return true;
    if (e.name === 'PublishTimeoutError' || e.name === 'KafkaJSConnectionError' || e.name === 'KafkaJSRequestTimeoutError') return true;
    if (typeof e.message === 'string' && /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i.test(e.message)) {
      return true;
    }
  }
  return false;
}

/**
 * Retries a Kafka admin/set-up call on errors the client marks retriable (e.g. "not the leader" right after a
 * topic was created, while leadership propagates), with a bounded back-off. That includes an error kafkajs gave up on:
 * its own retrier hands back the last retriable error wrapped as non-retriable (a broker busy deleting hundreds of
 * topics took longer than those retries to serve a topic it had just created, and a service failed to start).
 */
export async function retryRetriable<T>(work: () => Promise<T>, attempts = 30): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isRetriable(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    }
  }
}

/** Whether the error, or one it wraps, is marked retriable by kafkajs. */
function isRetriable(err: unknown): boolean {
  for (const e of wrappedErrors(err)) if (e.retriable === true) return true;
  return false;
}

type ErrorLike = { code?: unknown; name?: unknown; retriable?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };

/** The error and those it wraps (TypeORM's `driverError`, kafkajs's and Node's `cause`), at most five deep. */
function* wrappedErrors(err: unknown): Generator<ErrorLike> {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as ErrorLike;
    yield e;
    current = e.driverError ?? e.cause;
  }
}
