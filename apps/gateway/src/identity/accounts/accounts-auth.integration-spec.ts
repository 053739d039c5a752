import { JwtService } from '@nestjs/jwt';
import type { CreatedAccount } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { Client } from 'pg';
import { GatewayTestApp, TEST_JWT_SECRET } from '../../test/gateway-test-app';

const form = (fields: Record<string, string>) => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${encodeURIComponent(user)}:${encodeURIComponent(password)}`).toString('base64')}`;

describe('gateway: accounts, OAuth tokens, API keys and the tenant guard (real PostgreSQL and Kafka)', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwauth');
    account = await gw.signUp();
  });

  afterAll(async () => {
    await gw?.close();
  });

  describe('POST /api/v1/accounts', () => {
    it('creates a tenant with an OAuth client and an API key, storing only hashes', async () => {
      expect(account).toEqual({
        tenant_id: expect.stringMatching(/^ten_[0-9A-Z]{26}$/),
        plan: 'free',
        client_id: expect.stringMatching(/^cli_[0-9A-Z]{26}$/),
        client_secret: expect.stringMatching(/^parley_cs_[A-Za-z0-9_-]{43}$/),
        api_key: expect.stringMatching(/^parley_sk_[A-Za-z0-9_-]{43}$/),
      });
      const pg = new Client({ connectionString: gw.db.url });
      await pg.connect();
      try {
        const { rows } = await pg.query(
          `SELECT t.plan, c.secret_hash, k.key_hash FROM gateway.tenants t JOIN gateway.oauth_clients c ON c.tenant_id = t.id JOIN gateway.api_keys k ON k.tenant_id = t.id WHERE t.id = $1`,
          [account.tenant_id],
        );
        expect(rows).toHaveLength(1);
        expect(rows[0].plan).toBe('free');
        expect(rows[0].secret_hash).toMatch(/^scrypt\$/);
        expect(rows[0].secret_hash).not.toContain(account.client_secret);
        expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        await pg.end();
      }
    });

    it('answers a broken body with a 400 problem naming the fields', async () => {
      const answer = await gw.request('POST', '/api/v1/accounts', { body: { name: '', email: 'nope', plan: 'pro' } });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name', 'plan']);
    });

    it('with the sandbox enabled but messaging-service unreachable: 503 with Retry-After, and nothing is left behind', async () => {
      const withSandbox = await gw.sibling({ SANDBOX_ENABLED: 'true' });
      try {
        const answer = await withSandbox.request('POST', '/api/v1/accounts', { body: { name: 'Rolled Back Ltd' } });
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('5');
        expect(answer.body.type).toBe('https://parley.dev/problems/service-unavailable');
        const pg = new Client({ connectionString: gw.db.url });
        await pg.connect();
        try {
          const { rows } = await pg.query(`SELECT count(*)::int AS n FROM gateway.tenants WHERE name = 'Rolled Back Ltd'`);
          expect(rows[0].n).toBe(0);
        } finally {
          await pg.end();
        }
      } finally {
        await withSandbox.close();
      }
    });
  });

  describe('POST /oauth/token', () => {
    const expectToken = (answer: { status: number; headers: Headers; body: { access_token: string; token_type: string; expires_in: number } }) => {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    };

    it('issues a token for a JSON body, and the token authenticates', async () => {
      const answer = await gw.request('POST', '/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret },
      });
      expectToken(answer);
      const claims = new JwtService({ secret: TEST_JWT_SECRET }).verify(answer.body.access_token);
      expect(claims).toMatchObject({ sub: account.tenant_id, iss: 'parley', aud: 'parley-api' });
      expect(claims.exp - claims.iat).toBe(3600);
      expect((await gw.request('GET', '/api/v1/api-keys', { token: answer.body.access_token })).status).toBe(200);
    });

    it('issues a token for a form body and for HTTP Basic client authentication', async () => {
      expectToken(await gw.request('POST', '/oauth/token', form({ grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret })));
      expectToken(
        await gw.request('POST', '/oauth/token', {
          ...form({ grant_type: 'client_credentials' }),
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(account.client_id, account.client_secret) },
        }),
      );
    });

    it('answers errors in the OAuth shape', async () => {
      const cases: [Parameters<GatewayTestApp['request']>[2], number, string][] = [
        [{ body: { grant_type: 'password', client_id: account.client_id, client_secret: account.client_secret } }, 400, 'unsupported_grant_type'],
        [{ body: { client_id: account.client_id, client_secret: account.client_secret } }, 400, 'invalid_request'],
        [{ body: { grant_type: 'client_credentials', client_id: account.client_id } }, 400, 'invalid_request'],
        [{ body: { grant_type: 'client_credentials', client_id: account.client_id, client_secret: 'parley_cs_wrong' } }, 401, 'invalid_client'],
        [{ body: { grant_type: 'client_credentials', client_id: 'cli_01JUNKJUNKJUNKJUNKJUNKJUNK', client_secret: account.client_secret } }, 401, 'invalid_client'],
        [{ rawBody: '{"grant_type":', headers: { 'content-type': 'application/json' } }, 400, 'invalid_request'],
        [{ rawBody: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } }, 415, 'invalid_request'],
      ];
      for (const [options, status, error] of cases) {
        const answer = await gw.request('POST', '/oauth/token', options);
        expect({ status: answer.status, type: answer.headers.get('content-type'), body: answer.body }).toEqual({
          status,
          type: expect.stringContaining('application/json'),
          body: { error, error_description: expect.any(String) },
        });
        expect(answer.headers.get('www-authenticate')).toBeNull();
      }
    });

    it('challenges with WWW-Authenticate: Basic when HTTP Basic credentials are wrong', async () => {
      const answer = await gw.request('POST', '/oauth/token', {
        ...form({ grant_type: 'client_credentials' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(account.client_id, 'wrong') },
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm="parley"/);
    });
  });

  describe('the tenant guard', () => {
    const jwt = (secret: string, claims: Record<string, unknown>, options: Record<string, unknown> = {}) =>
      new JwtService({ secret }).sign(claims, { algorithm: 'HS256', issuer: 'parley', audience: 'parley-api', ...options });

    it('refuses missing, malformed, forged, expired and unknown credentials with 401 and WWW-Authenticate: Bearer', async () => {
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const valid = jwt(TEST_JWT_SECRET, { sub: account.tenant_id });
      const [h, , s] = valid.split('.');
      const credentials: Record<string, Record<string, string>> = {
        missing: {},
        'wrong scheme': { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        'empty bearer': { authorization: 'Bearer ' },
        garbage: { authorization: 'Bearer not-a-token' },
        'alg none': { authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: account.tenant_id, iss: 'parley', aud: 'parley-api' })}.` },
        'another key': { authorization: `Bearer ${jwt('some-other-secret-of-16+chars', { sub: account.tenant_id })}` },
        expired: { authorization: `Bearer ${jwt(TEST_JWT_SECRET, { sub: account.tenant_id, exp: Math.floor(Date.now() / 1000) - 60 }, {})}` },
        'other audience': { authorization: `Bearer ${jwt(TEST_JWT_SECRET, { sub: account.tenant_id }, { audience: 'someone-else' })}` },
        'tampered tenant': { authorization: `Bearer ${h}.${b64({ sub: 'ten_01OTHERTENANT0000000000000', iss: 'parley', aud: 'parley-api' })}.${s}` },
        'unknown API key': { authorization: `Bearer parley_sk_${'A'.repeat(43)}` },
      };
      for (const [label, headers] of Object.entries(credentials)) {
        const answer = await gw.request('GET', '/api/v1/api-keys', { headers });
        expect({ label, status: answer.status, challenge: answer.headers.get('www-authenticate')?.split(' ')[0] }).toEqual({ label, status: 401, challenge: 'Bearer' });
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(answer.body).toMatchObject({ status: 401, type: 'https://parley.dev/problems/unauthorized', request_id: expect.any(String) });
      }
    });

    it('takes the tenant from the credential: a different body tenant_id is 403, the same one is accepted', async () => {
      const other = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'x', tenant_id: 'ten_01SOMEONEELSE00000000000000' } });
      expect(other.status).toBe(403);
      expect(other.body).toMatchObject({ type: 'https://parley.dev/problems/forbidden', errors: [{ field: 'tenant_id' }] });
      const same = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'same', tenant_id: account.tenant_id } });
      expect(same.status).toBe(201);
    });
  });

  describe('API keys', () => {
    it('creates (secret shown once), lists without secrets, and revokes; a revoked key is refused within 5 s', async () => {
      const created = await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'ci' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
        name: 'ci',
        api_key: expect.stringMatching(/^parley_sk_[A-Za-z0-9_-]{43}$/),
        created_at: expect.stringMatching(/Z$/),
      });
      const key = created.body as { id: string; api_key: string };
      expect((await gw.request('GET', '/api/v1/api-keys', { token: key.api_key })).status).toBe(200);

      const list = await gw.request('GET', '/api/v1/api-keys', { token: account.api_key });
      expect(list.status).toBe(200);
      expect(list.body.next_cursor).toBeNull();
      expect(list.body.data[0]).toEqual({ id: key.id, name: 'ci', prefix: key.api_key.slice(0, 16), created_at: created.body.created_at });
      expect(JSON.stringify(list.body)).not.toContain(key.api_key);
      expect(list.body.data.map((k: { name: string }) => k.name)).toEqual(['ci', 'same', 'default']);

      const page = await gw.request('GET', '/api/v1/api-keys?limit=2', { token: account.api_key });
      expect(page.body.data).toHaveLength(2);
      const rest = await gw.request('GET', `/api/v1/api-keys?limit=2&cursor=${page.body.next_cursor}`, { token: account.api_key });
      expect(rest.body).toEqual({ data: [expect.objectContaining({ name: 'default' })], next_cursor: null });

      const stranger = await gw.signUp('Stranger');
      expect((await gw.request('DELETE', `/api/v1/api-keys/${key.id}`, { token: stranger.api_key })).status).toBe(404);
      // Only a cursor this list handed out to this tenant pages it (a bare key id was once taken as one).
      for (const [cursor, token] of [[key.id, account.api_key], [page.body.next_cursor, stranger.api_key]]) {
        const refused = await gw.request('GET', `/api/v1/api-keys?cursor=${cursor}`, { token });
        expect({ status: refused.status, errors: refused.body.errors }).toEqual({ status: 400, errors: [{ field: 'cursor', message: expect.any(String) }] });
      }

      const revoked = await gw.request('DELETE', `/api/v1/api-keys/${key.id}`, { token: account.api_key });
      expect(revoked.status).toBe(204);
      const refusedAt = Date.now();
      await pollUntil(async () => (await gw.request('GET', '/api/v1/api-keys', { token: key.api_key })).status === 401, {
        timeoutMs: 5000,
        description: 'the revoked key to be refused',
      });
      expect(Date.now() - refusedAt).toBeLessThan(5000);
      expect((await gw.request('DELETE', `/api/v1/api-keys/${key.id}`, { token: account.api_key })).status).toBe(404);
    });

    it('refuses a bad limit with 400 naming it', async () => {
      const answer = await gw.request('GET', '/api/v1/api-keys?limit=500', { token: account.api_key });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'limit', message: expect.stringContaining('1 to 100') }]);
    });
  });
});
