import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Credential formats and hashing. Secrets are shown once and only their hashes are stored. The recognisable
 * prefixes let secret scanners (GitHub, GitGuardian) spot a leaked key or client secret.
 */
export const API_KEY_PREFIX = 'parley_sk_';
export const CLIENT_SECRET_PREFIX = 'parley_cs_';
/** 32 random bytes, base64url without padding. */
const SECRET_BODY = /^[A-Za-z0-9_-]{43}$/;
/** Characters of an API key kept for display (`parley_sk_AbCdEf`): enough to tell keys apart, useless to an attacker. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

function randomSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

export function generateApiKey(): string {
  return randomSecret(API_KEY_PREFIX);
}

export function generateClientSecret(): string {
  return randomSecret(CLIENT_SECRET_PREFIX);
}

/** Whether a bearer value is shaped like one of our API keys (anything else is treated as a JWT). */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX) && SECRET_BODY.test(value.slice(API_KEY_PREFIX.length));
}

/**
 * The stored form of an API key. A plain SHA-256 is right here (unlike passwords): the key has 256 bits of
 * entropy, so there is nothing to brute-force, and the lookup must be an indexed equality on every request.
 */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function apiKeyDisplayPrefix(apiKey: string): string {
  return apiKey.slice(0, DISPLAY_PREFIX_LENGTH);
}

// scrypt cost: N=2^14, r=8, p=1 (16 MiB, tens of ms): OWASP's floor for interactive logins.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>`: self-describing, so the cost can be raised later. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Checks a secret against a stored `hashSecret` value in constant time; false for any malformed hash. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (![N, r, p].every(Number.isSafeInteger) || expected.length === 0) return false;
  const actual = await scryptAsync(secret, salt, expected.length, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

/** Equality of two strings whose time does not depend on where they differ (tokens, signatures). */
export function constantTimeEqual(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the comparison leaks neither content nor length.
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}
