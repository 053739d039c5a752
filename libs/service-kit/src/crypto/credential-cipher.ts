import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const FORMAT = 'v1';

interface Key {
  /** Short fingerprint stored beside each ciphertext, so decryption picks the right key after a rotation. */
  id: string;
  secret: Buffer;
}

/**
 * Encrypts provider credentials at rest with AES-256-GCM. Configured with a comma-separated list of base64 keys
 * (ENCRYPTION_KEY): the first encrypts, every one decrypts, so a key can be rotated in without re-encrypting.
 * Stored form: `v1:<key id>:<iv>:<auth tag>:<ciphertext>` (base64url parts).
 */
export class CredentialCipher {
  private readonly keys: Key[];

  constructor(keyList: string) {
    this.keys = keyList
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((encoded) => {
        const secret = Buffer.from(encoded, 'base64');
        if (secret.length !== 32) throw new Error('each ENCRYPTION_KEY must be 32 bytes, base64');
        return { id: createHash('sha256').update(secret).digest('base64url').slice(0, 8), secret };
      });
    if (this.keys.length === 0) throw new Error('ENCRYPTION_KEY holds no key');
  }

  encrypt(plaintext: string): string {
    const key = this.keys[0];
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key.secret, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, key.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
  }

  decrypt(stored: string): string {
    const [format, keyId, iv, tag, ciphertext] = stored.split(':');
    if (format !== FORMAT || ciphertext === undefined) throw new Error('not a stored credential');
    const key = this.keys.find((k) => k.id === keyId);
    // Never echo the value: only say which key is missing.
    if (!key) throw new Error(`no configured ENCRYPTION_KEY has the id ${keyId}`);
    const decipher = createDecipheriv(ALGORITHM, key.secret, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
