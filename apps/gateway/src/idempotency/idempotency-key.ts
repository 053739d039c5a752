import { createHash } from 'node:crypto';
import { validationProblem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';

/** 1–255 printable ASCII characters (what Stripe and the IETF Idempotency-Key draft expect of a client's key). */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

/** The request's `Idempotency-Key`, undefined without one; a 400 naming the header when it breaks the rule. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header === 'string' && KEY_PATTERN.test(header)) return header;
  throw new ProblemException(
    validationProblem([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters, sent once' }], 'The Idempotency-Key header is not valid.'),
  );
}

/** JSON with object keys sorted at every level, so bodies equal as data (key order, spacing) compare equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a keyed request is compared by: the SHA-256 of its canonical body. */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
