import { createHash } from 'node:crypto';
import { ulid } from 'ulid';

/** Prefixes of public identifiers (CONTRACT.md §1). */
export type IdPrefix = 'ten' | 'msg' | 'agt' | 'key' | 'whk' | 'dlv' | 'chn' | 'cnv' | 'led' | 'apt' | 'evt' | 'cli' | 'doc' | 'usr' | 'tpl' | 'nte' | 'txn' | 'med' | 'ctc' | 'cmp' | 'pip' | 'del' | 'imp' | 'cpg' | 'top' | 'inv' | 'act' | 'cnr' | 'gap' | 'tst' | 'run' | 'tea';

/**
 * ulid's default source calls `crypto.getRandomValues` once per character (16 calls per id, ~5 % of CPU on hot
 * paths); this one draws the same cryptographic bytes 4 KiB at a time (Web Crypto, so it stays browser-safe).
 */
const RANDOM_POOL_SIZE = 4096;
const randomPool = new Uint8Array(RANDOM_POOL_SIZE);
let randomPoolOffset = RANDOM_POOL_SIZE;

function pooledRandom(): number {
  if (randomPoolOffset === RANDOM_POOL_SIZE) {
    globalThis.crypto.getRandomValues(randomPool);
    randomPoolOffset = 0;
  }
  return randomPool[randomPoolOffset++] / 256;
}

/** A new time-ordered identifier: `<prefix>_<ULID>`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid(undefined, pooledRandom)}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A deterministic identifier derived from its parts (same parts → same id), shaped like a ULID.
 * Used where a retry must land on the same id: a keyed send, an agent's reply to one inbound message, an event
 * that re-publishing must not duplicate.
 */
export function derivedId(prefix: IdPrefix, ...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  let out = '';
  for (let i = 0; i < 26; i++) out += CROCKFORD[digest[i] % 32];
  return `${prefix}_${out}`;
}

export function hasPrefix(id: unknown, prefix: IdPrefix): id is string {
  return typeof id === 'string' && /^[a-z]{3}_[0-9A-HJKMNP-TV-Z]{26}$/.test(id) && id.startsWith(`${prefix}_`);
}
