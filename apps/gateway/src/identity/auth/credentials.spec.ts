import { createHash } from 'node:crypto';
import {
  apiKeyDisplayPrefix,
  constantTimeEqual,
  generateApiKey,
  generateClientSecret,
  hashApiKey,
  hashSecret,
  looksLikeApiKey,
  verifySecret,
} from './credentials';

describe('credential helpers', () => {
  describe('API keys', () => {
    it('are parley_sk_ + 43 base64url characters (32 random bytes), different every time', () => {
      const key = generateApiKey();
      expect(key).toMatch(/^parley_sk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.slice('parley_sk_'.length), 'base64url')).toHaveLength(32);
      expect(generateApiKey()).not.toBe(key);
      expect(looksLikeApiKey(key)).toBe(true);
    });

    it('are told apart from JWTs and near misses', () => {
      expect(looksLikeApiKey('eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe(false);
      expect(looksLikeApiKey(`parley_sk_${'A'.repeat(42)}`)).toBe(false);
      expect(looksLikeApiKey(`parley_cs_${'A'.repeat(43)}`)).toBe(false);
    });

    it('are stored as their SHA-256 (hex) and shown by a short prefix only', () => {
      const key = generateApiKey();
      expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
      expect(hashApiKey(key)).toBe(hashApiKey(key));
      expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 16));
      expect(apiKeyDisplayPrefix(key).startsWith('parley_sk_')).toBe(true);
    });
  });

  describe('client secrets (scrypt)', () => {
    it('are parley_cs_ + 43 base64url characters', () => {
      expect(generateClientSecret()).toMatch(/^parley_cs_[A-Za-z0-9_-]{43}$/);
    });

    it('verify against their own hash only, with a fresh salt each time', async () => {
      const secret = generateClientSecret();
      const stored = await hashSecret(secret);
      expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
      expect(stored).not.toContain(secret.slice(10));
      expect(await hashSecret(secret)).not.toBe(stored);
      await expect(verifySecret(secret, stored)).resolves.toBe(true);
      await expect(verifySecret(`${secret}x`, stored)).resolves.toBe(false);
      await expect(verifySecret(generateClientSecret(), stored)).resolves.toBe(false);
    });

    it('refuse malformed stored hashes instead of throwing', async () => {
      for (const stored of ['', 'plain', 'bcrypt$1$2$3$4$5', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'scrypt$16384$8$1$c2FsdA$']) {
        await expect(verifySecret('secret', stored)).resolves.toBe(false);
      }
    });
  });

  it('constantTimeEqual compares strings of any length', () => {
    expect(constantTimeEqual('token', 'token')).toBe(true);
    expect(constantTimeEqual('token', 'tokem')).toBe(false);
    expect(constantTimeEqual('token', 'token-longer')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
