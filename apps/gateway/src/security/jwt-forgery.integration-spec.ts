import { JwtService } from '@nestjs/jwt';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { GatewayTestApp, TEST_JWT_SECRET, type CreatedAccount } from '../test/gateway-test-app';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/**
 * Issue 9, attacker's pass: forged and bent bearer credentials (CONTRACT.md §2). Each must answer 401 problem+json
 * with `WWW-Authenticate: Bearer`, while the honest token next to it keeps working (so a 401 is the forgery's fault).
 */
describe('gateway security: JWT forgery variants (real PostgreSQL, Kafka and Redis)', () => {
  let gw: GatewayTestApp;
  let victim: CreatedAccount;
  let attacker: CreatedAccount;
  let honest: string;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwjwtforge');
    [victim, attacker] = [await gw.signUp('Victim'), await gw.signUp('Attacker')];
    const token = await gw.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: attacker.client_id, client_secret: attacker.client_secret },
    });
    honest = token.body.access_token;
  });

  afterAll(async () => {
    await gw?.close();
  });

  /**
   * A token with our claims; `claims` override or (as undefined) remove them; `header` adds header fields. HMAC
   * tokens are put together by hand, so claims a JWT library would refuse to sign (exp as a string) can be sent too.
   */
  const forge = (claims: Record<string, unknown>, key: string = TEST_JWT_SECRET, header: Record<string, unknown> = {}, algorithm = 'HS256') => {
    const payload = Object.fromEntries(
      Object.entries({ sub: victim.tenant_id, iss: 'parley', aud: 'parley-api', iat: now(), exp: now() + 600, ...claims }).filter(([, v]) => v !== undefined),
    );
    if (algorithm.startsWith('RS')) return new JwtService().sign(payload, { secret: key, algorithm: 'RS256', header: { alg: 'RS256', typ: 'JWT', ...header } });
    const signingInput = `${b64({ alg: algorithm, typ: 'JWT', ...header })}.${b64(payload)}`;
    return `${signingInput}.${createHmac(`sha${algorithm.slice(2)}`, key).update(signingInput).digest('base64url')}`;
  };
  const unsigned = (header: Record<string, unknown>) => `${b64(header)}.${b64({ sub: victim.tenant_id, iss: 'parley', aud: 'parley-api', exp: now() + 600 })}.`;

  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

  const forgeries = (): Record<string, string> => {
    const [h, p, s] = honest.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    return {
      'alg none': `Bearer ${unsigned({ alg: 'none', typ: 'JWT' })}`,
      'alg NONE, upper case': `Bearer ${unsigned({ alg: 'NONE', typ: 'JWT' })}`,
      'alg none with the honest signature kept': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`,
      'HS256 keyed with an RSA public key (algorithm confusion)': `Bearer ${forge({}, publicKey)}`,
      'RS256 signed with an attacker key': `Bearer ${forge({}, privateKey, {}, 'RS256')}`,
      'HS256 with a wrong secret': `Bearer ${forge({}, 'a-wrong-secret-that-is-long-enough')}`,
      'HS256 with an empty secret': `Bearer ${forge({}, '')}`,
      'HS512 with the right secret (algorithm not pinned)': `Bearer ${forge({}, TEST_JWT_SECRET, {}, 'HS512')}`,
      expired: `Bearer ${forge({ iat: now() - 7200, exp: now() - 3600 })}`,
      'not yet valid (nbf in the future)': `Bearer ${forge({ nbf: now() + 3600 })}`,
      'no exp (valid forever)': `Bearer ${forge({ exp: undefined })}`,
      'exp as a string': `Bearer ${forge({ exp: String(now() + 600) })}`,
      'wrong issuer': `Bearer ${forge({ iss: 'evil' })}`,
      'no issuer': `Bearer ${forge({ iss: undefined })}`,
      'wrong audience': `Bearer ${forge({ aud: 'another-api' })}`,
      'no subject': `Bearer ${forge({ sub: undefined })}`,
      'subject not a tenant': `Bearer ${forge({ sub: 'admin' })}`,
      'subject of a tenant that does not exist': `Bearer ${forge({ sub: 'ten_01JZZZZZZZZZZZZZZZZZZZZZZZ' })}`,
      'tenant swapped in the payload, original signature': `Bearer ${h}.${b64({ ...claims, sub: victim.tenant_id })}.${s}`,
      'signature stripped': `Bearer ${h}.${p}.`,
      'signature of another token': `Bearer ${h}.${p}.${forge({}).split('.')[2]}`,
      'kid pointing at a file': `Bearer ${forge({}, '', { kid: '../../../../dev/null' })}`,
      'kid SQL injection, signed with the injected value': `Bearer ${forge({}, 'x', { kid: "x' UNION SELECT 'x' --" })}`,
      'jku/x5u to an attacker key': `Bearer ${forge({}, privateKey, { jku: 'https://evil.example/jwks.json', x5u: 'https://evil.example/cert.pem' }, 'RS256')}`,
      'embedded jwk (attacker key)': `Bearer ${forge({}, privateKey, { jwk: { kty: 'RSA', n: 'x', e: 'AQAB' } }, 'RS256')}`,
      'two tokens in one header': `Bearer ${honest} ${honest}`,
      'token with trailing garbage': `Bearer ${honest}.x`,
      'scheme Basic with the token': `Basic ${honest}`,
      'scheme Token': `Token ${honest}`,
      'no scheme': honest,
      'Bearer without a space': `Bearer${honest}`,
      'Bearer with a tab': `Bearer\t${honest}`,
      'Bearer and nothing': 'Bearer',
      'huge token (8 KiB)': `Bearer ${h}.${'A'.repeat(8 * 1024)}.${s}`,
      'huge API-key-shaped value (12 KiB)': `Bearer parley_sk_${'A'.repeat(12 * 1024)}`,
    };
  };

  it('the honest token and its lower-case scheme work (RFC 6750: the scheme is case-insensitive)', async () => {
    for (const authorization of [`Bearer ${honest}`, `bearer ${honest}`, `BEARER ${honest}`]) {
      const answer = await gw.request('GET', '/api/v1/api-keys', { headers: { authorization } });
      expect({ authorization: authorization.slice(0, 6), status: answer.status }).toEqual({ authorization: authorization.slice(0, 6), status: 200 });
    }
  });

  it('refuses every forgery with 401 problem+json and WWW-Authenticate: Bearer, never the victim’s data', async () => {
    const results = await Promise.all(
      Object.entries(forgeries()).map(async ([label, authorization]) => ({ label, answer: await gw.request('GET', '/api/v1/api-keys', { headers: { authorization } }) })),
    );
    for (const { label, answer } of results) {
      expect({ label, status: answer.status, challenge: answer.headers.get('www-authenticate')?.split(' ')[0] }).toEqual({ label, status: 401, challenge: 'Bearer' });
      expect({ label, type: answer.headers.get('content-type') }).toEqual({ label, type: expect.stringContaining('application/problem+json') });
      expect({ label, body: answer.body }).toEqual({ label, body: expect.objectContaining({ status: 401, type: 'https://parley.dev/problems/unauthorized', request_id: expect.any(String) }) });
      expect({ label, leaks: JSON.stringify(answer.body).includes(victim.tenant_id) }).toEqual({ label, leaks: false });
    }
    // A forged credential on a write is refused before anything happens: the victim's keys are unchanged.
    const keys = await gw.request('GET', '/api/v1/api-keys', { token: victim.api_key });
    const forged = await gw.request('POST', '/api/v1/api-keys', { headers: { authorization: `Bearer ${forge({ exp: undefined })}` }, body: { name: 'planted' } });
    expect(forged.status).toBe(401);
    expect((await gw.request('GET', '/api/v1/api-keys', { token: victim.api_key })).body.data).toEqual(keys.body.data);
  });

  it('answers a header too large for the server with a problem+json 431, and keeps serving', async () => {
    const answer = await gw.request('GET', '/api/v1/api-keys', { headers: { authorization: `Bearer ${'A'.repeat(64 * 1024)}` } });
    expect(answer.status).toBe(431);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 431, type: 'https://parley.dev/problems/request-header-fields-too-large', request_id: expect.any(String) });
    expect((await gw.request('GET', '/api/v1/api-keys', { token: honest })).status).toBe(200);
  });
});
