import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The password rule (CONTRACT.md §12), shared by sign-up, invitation acceptance and password reset. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
export const PASSWORD_RULE = `password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`;

const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Stored hashes are trusted only up to this cost (2^20 × 8 × 128 B = 1 GiB), so a corrupt row cannot exhaust memory. */
const MAX_LOG_N = 20;

/** Node refuses scrypt above `maxmem` (default 32 MiB); the need is 128·N·r bytes plus a little. */
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function scryptAsync(secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/**
 * A password's stored form: scrypt (memory-hard) with a random salt, written `scrypt$N$r$p$<salt>$<hash>` like the
 * client secrets (auth/credentials.ts), so the cost can be raised later without invalidating stored passwords.
 * `logN` is log2 of scrypt's N (17: OWASP's recommendation, 128 MiB per hash).
 */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const n = 2 ** logN;
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r: R, p: P, maxmem: maxmemFor(n, R) });
  return ['scrypt', n, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Checks a password against a stored `hashPassword` value in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (![n, r, p].every((v) => Number.isSafeInteger(v) && v > 0) || n > 2 ** MAX_LOG_N || r > 32 || p > 16 || expected.length === 0) return false;
  const actual = await scryptAsync(password.normalize('NFC'), salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) });
  return timingSafeEqual(actual, expected);
}

/**
 * The work of one verification, for an email that has no account: signing in then takes as long as with a wrong
 * password, so the answer's timing does not tell which emails have accounts.
 */
export class DecoyPassword {
  private decoy?: Promise<string>;

  constructor(private readonly logN: number) {}

  async verify(password: string): Promise<false> {
    this.decoy ??= hashPassword(randomBytes(16).toString('base64url'), this.logN);
    await verifyPassword(password, await this.decoy);
    return false;
  }
}
