import { JwtService } from '@nestjs/jwt';
import { loadConfig } from '@parley/service-kit';
import { GatewayConfig } from '../../config/gateway.config';
import { TokenService } from './token.service';

const SECRET = 'unit-test-jwt-secret-0123456789';
const TENANT = 'ten_01JABCDEFGHJKMNPQRSTVWXYZ0';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('TokenService', () => {
  const config = loadConfig(GatewayConfig, { JWT_SECRET: SECRET, JWT_TTL_SECONDS: '900' });
  const jwt = new JwtService({ secret: SECRET });
  const tokens = new TokenService(jwt, config);
  /** Signs with our defaults; an option given as undefined is left out. */
  const sign = (claims: Record<string, unknown>, options: Record<string, unknown> = {}, secret = SECRET) => {
    const merged = { algorithm: 'HS256', issuer: 'parley', audience: 'parley-api', subject: TENANT, expiresIn: 60, ...options };
    return new JwtService({ secret }).sign(claims, Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)));
  };

  it('issues an HS256 bearer token for the tenant with iss, aud and the configured lifetime', async () => {
    const issued = await tokens.issue(TENANT);
    expect(issued).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });
    const [header, payload] = issued.access_token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: TENANT, iss: 'parley', aud: 'parley-api' });
    expect(payload.exp - payload.iat).toBe(900);
    await expect(tokens.verify(issued.access_token)).resolves.toBe(TENANT);
  });

  it('refuses alg "none"', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: TENANT, iss: 'parley', aud: 'parley-api', exp: Math.floor(Date.now() / 1000) + 60 })}.`;
    await expect(tokens.verify(unsigned)).resolves.toBeNull();
  });

  it('refuses a token signed with another key', async () => {
    await expect(tokens.verify(sign({}, {}, 'another-secret-entirely-0123456'))).resolves.toBeNull();
  });

  it('refuses another HMAC algorithm even with the right key (the algorithm is pinned)', async () => {
    await expect(tokens.verify(sign({}, { algorithm: 'HS512' }))).resolves.toBeNull();
  });

  it('refuses an expired token', async () => {
    await expect(tokens.verify(sign({ exp: Math.floor(Date.now() / 1000) - 5 }, { expiresIn: undefined }))).resolves.toBeNull();
  });

  it('refuses a correctly signed token without exp (it would never expire) or not valid yet', async () => {
    await expect(tokens.verify(sign({}, { expiresIn: undefined }))).resolves.toBeNull();
    await expect(tokens.verify(sign({}, { notBefore: 3600 }))).resolves.toBeNull();
  });

  it('refuses a token whose tenant claim was changed after signing', async () => {
    const [header, , signature] = sign({}).split('.');
    const forged = `${header}.${b64({ sub: 'ten_01JOTHERTENANT00000000000', iss: 'parley', aud: 'parley-api', exp: Math.floor(Date.now() / 1000) + 60 })}.${signature}`;
    await expect(tokens.verify(forged)).resolves.toBeNull();
  });

  it('refuses another issuer or audience, a missing or foreign subject, and garbage', async () => {
    await expect(tokens.verify(sign({}, { issuer: 'someone-else' }))).resolves.toBeNull();
    await expect(tokens.verify(sign({}, { audience: 'other-api' }))).resolves.toBeNull();
    await expect(tokens.verify(sign({}, { subject: undefined }))).resolves.toBeNull();
    await expect(tokens.verify(sign({}, { subject: 'admin' }))).resolves.toBeNull();
    await expect(tokens.verify('not.a.jwt')).resolves.toBeNull();
    await expect(tokens.verify(sign({}))).resolves.toBe(TENANT);
  });
});
