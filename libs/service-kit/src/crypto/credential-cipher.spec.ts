import { randomBytes } from 'node:crypto';
import { CredentialCipher } from './credential-cipher';

const key = () => randomBytes(32).toString('base64');

describe('CredentialCipher', () => {
  it('round-trips a token and never stores it in clear', () => {
    const cipher = new CredentialCipher(key());
    const stored = cipher.encrypt('EAAG-secret-token');
    expect(stored).not.toContain('EAAG-secret-token');
    expect(stored.startsWith('v1:')).toBe(true);
    expect(cipher.decrypt(stored)).toBe('EAAG-secret-token');
  });

  it('uses a fresh IV each time', () => {
    const cipher = new CredentialCipher(key());
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('decrypts with any key of the rotation list and encrypts with the first', () => {
    const [oldKey, newKey] = [key(), key()];
    const before = new CredentialCipher(oldKey).encrypt('token-a');
    const rotated = new CredentialCipher(`${newKey},${oldKey}`);
    expect(rotated.decrypt(before)).toBe('token-a');

    const after = rotated.encrypt('token-b');
    expect(new CredentialCipher(newKey).decrypt(after)).toBe('token-b');
    expect(() => new CredentialCipher(oldKey).decrypt(after)).toThrow(/no configured ENCRYPTION_KEY/);
  });

  it('refuses a tampered ciphertext', () => {
    const cipher = new CredentialCipher(key());
    const parts = cipher.encrypt('token').split(':');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow();
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new CredentialCipher(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => new CredentialCipher('')).toThrow(/no key/);
  });
});
