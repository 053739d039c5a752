import { DecoyPassword, hashPassword, verifyPassword } from './passwords';

// The lowest cost the configuration allows (2^14), to keep the unit tier quick; the format carries the cost.
const LOG_N = 14;

describe('passwords', () => {
  it('hashes with scrypt in a self-describing format, salted, never containing the password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery', LOG_N), hashPassword('correct horse battery', LOG_N)]);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse battery', LOG_N);
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('treats the same characters in another Unicode form as the same password', async () => {
    const stored = await hashPassword('contraseña segura', LOG_N);
    await expect(verifyPassword('contrasen\u0303a segura', stored)).resolves.toBe(true);
  });

  it('verifies with the cost stored in the hash, so raising the cost keeps old passwords valid', async () => {
    const stored = await hashPassword('an older password', 15);
    expect(stored.split('$')[1]).toBe('32768');
    await expect(verifyPassword('an older password', stored)).resolves.toBe(true);
  });

  it('refuses malformed or absurdly costly stored values instead of throwing', async () => {
    const stored = await hashPassword('correct horse battery', LOG_N);
    const parts = stored.split('$');
    for (const bad of ['', 'plain', stored.replace('scrypt', 'bcrypt'), [...parts.slice(0, 5)].join('$'), [parts[0], 2 ** 30, ...parts.slice(2)].join('$'), [parts[0], 'x', ...parts.slice(2)].join('$')]) {
      await expect(verifyPassword('correct horse battery', bad)).resolves.toBe(false);
    }
  });

  it('a decoy verification always fails', async () => {
    await expect(new DecoyPassword(LOG_N).verify('anything at all')).resolves.toBe(false);
  });
});
