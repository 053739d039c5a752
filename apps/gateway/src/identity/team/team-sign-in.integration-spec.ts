import { JwtService } from '@nestjs/jwt';
import { pollUntil } from '@parley/testing';
import type { CreatedAccount } from '@parley/contracts';
import { GatewayTestApp, TEST_JWT_SECRET, type HttpAnswer } from '../../test/gateway-test-app';
import { Browser } from '../../test/member-browser';
import { MemberLinks } from './member-links';

const PROBLEMS = 'https://parley.dev/problems';
const PASSWORD = 'correct horse battery';
/** scrypt at its lowest allowed cost: the tests sign in dozens of times on a shared machine. */
const ENV = { PASSWORD_SCRYPT_LOG_N: '14' };

let emailCounter = 0;
const uniqueEmail = (who: string) => `${who}.${Date.now()}.${++emailCounter}@example.com`;

const expectProblem = (answer: HttpAnswer, status: number, type: string) => {
  expect({ status: answer.status, type: answer.body?.type, media: answer.headers.get('content-type') }).toEqual({
    status,
    type: `${PROBLEMS}/${type}`,
    media: expect.stringContaining('application/problem+json'),
  });
};

/**
 * CONTRACT.md §12, team members and sign-in: the owner at sign-up, invitations, sessions in an httpOnly cookie with
 * CSRF protection, member access tokens, roles, login throttling, session expiry, the member allowance apart from the
 * tenant's quota, password reset, and tenant isolation. One gateway on real PostgreSQL, Redis and Kafka, plus a
 * production sibling on the same database with short-lived sessions and invitations.
 */
describe('gateway: team members, sign-in and sessions (real PostgreSQL, Redis and Kafka)', () => {
  let gw: GatewayTestApp;
  let shortLived: GatewayTestApp;
  let account: CreatedAccount;
  let ownerEmail: string;
  let owner: Browser;

  /** An invited and accepted member of `account`, signed in. */
  const join = async (role: 'admin' | 'agent' | 'owner', name: string = role): Promise<{ id: string; email: string; browser: Browser }> => {
    const email = uniqueEmail(name);
    const invited = await owner.request('POST', '/api/v1/team', { body: { email, name, role }, csrf: true });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.invite_url).searchParams.get('token');
    expect((await gw.request('POST', '/api/v1/team/accept', { body: { token, password: PASSWORD } })).status).toBe(200);
    const browser = new Browser(gw);
    expect((await browser.login(email, PASSWORD)).status).toBe(200);
    return { id: invited.body.id, email, browser };
  };

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwteam', ENV);
    // Production (Secure cookies) with short-lived sessions and invitations, on the same database.
    shortLived = await gw.sibling({ ...ENV, NODE_ENV: 'production', ADMIN_TOKEN: 'test-admin-token-for-production', SESSION_TTL_SECONDS: '2', INVITE_TTL_SECONDS: '1' });
    ownerEmail = uniqueEmail('Owner');
    const answer = await gw.request('POST', '/api/v1/accounts', { body: { name: 'Team Bakery', email: ownerEmail, password: PASSWORD, owner_name: 'Olivia' } });
    expect(answer.status).toBe(201);
    account = answer.body;
    owner = new Browser(gw);
    expect((await owner.login(ownerEmail, PASSWORD)).status).toBe(200);
  });

  afterAll(async () => {
    await shortLived?.close();
    await gw?.close();
  });

  describe('the owner at sign-up and signing in', () => {
    it('makes the creator of an account with {email, password} its owner; sign-up still answers the credentials', async () => {
      expect(account).toEqual({ tenant_id: expect.stringMatching(/^ten_/), plan: 'free', client_id: expect.any(String), client_secret: expect.any(String), api_key: expect.any(String) });
      const team = await gw.request('GET', '/api/v1/team', { token: account.api_key });
      expect(team.status).toBe(200);
      expect(team.body).toEqual({
        data: [{ id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/), email: ownerEmail.toLowerCase(), name: 'Olivia', role: 'owner', status: 'active', created_at: expect.stringMatching(/Z$/) }],
        next_cursor: null,
      });
      // An account without a password has no team member (the old sign-up).
      const keyOnly = await gw.signUp('Key Only Ltd');
      expect((await gw.request('GET', '/api/v1/team', { token: keyOnly.api_key })).body.data).toEqual([]);
    });

    it('refuses a short password, and a password without an email, naming the field', async () => {
      const short = await gw.request('POST', '/api/v1/accounts', { body: { name: 'X', email: uniqueEmail('x'), password: 'short' } });
      expectProblem(short, 400, 'validation-error');
      expect(short.body.errors).toEqual([{ field: 'password', message: 'password must be 10 to 200 characters long' }]);
      const noEmail = await gw.request('POST', '/api/v1/accounts', { body: { name: 'X', password: PASSWORD } });
      expect(noEmail.body.errors).toEqual([{ field: 'email', message: 'email must be an email address' }]);
    });

    it('signs in with a JWT naming tenant and member and an httpOnly, SameSite=Strict session cookie', async () => {
      const browser = new Browser(gw);
      const answer = await browser.login(ownerEmail.toUpperCase(), PASSWORD);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
      const claims = new JwtService({ secret: TEST_JWT_SECRET }).verify(answer.body.access_token);
      expect(claims).toMatchObject({ sub: account.tenant_id, mbr: expect.stringMatching(/^usr_/), iss: 'parley', aud: 'parley-api' });

      const [session, csrf] = ['parley_session', 'parley_csrf'].map((name) => answer.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? '');
      expect(session).toMatch(/; Path=\/;/);
      expect(session).toContain('; HttpOnly');
      expect(session).toContain('; SameSite=Strict');
      // NODE_ENV is not production here: no Secure (the production attribute is checked below).
      expect(session).not.toContain('Secure');
      expect(csrf).not.toContain('HttpOnly');

      const viaCookie = await browser.request('GET', '/api/v1/team/me');
      expect(viaCookie.status).toBe(200);
      expect(viaCookie.body).toMatchObject({ id: claims.mbr, role: 'owner', email: ownerEmail.toLowerCase() });
      const viaToken = await gw.request('GET', '/api/v1/team/me', { token: answer.body.access_token });
      expect(viaToken.body).toMatchObject({ id: claims.mbr, role: 'owner' });
      expectProblem(await gw.request('GET', '/api/v1/team/me', { token: account.api_key }), 404, 'not-found');
    });

    it('answers a wrong password or an unknown email alike with 401, and a bad body with 400', async () => {
      const wrong = await new Browser(gw).login(ownerEmail, 'not the password');
      const unknown = await new Browser(gw).login(uniqueEmail('nobody'), PASSWORD);
      for (const answer of [wrong, unknown]) {
        expectProblem(answer, 401, 'unauthorized');
        expect(answer.body.detail).toBe('The email or the password is wrong.');
        expect(answer.headers.getSetCookie()).toEqual([]);
      }
      const bad = await gw.request('POST', '/auth/login', { body: { email: ownerEmail } });
      expect(new Set(bad.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['password']));
    });

    it('sets Secure on the cookies in production', async () => {
      const answer = await new Browser(shortLived).login(ownerEmail, PASSWORD);
      expect(answer.status).toBe(200);
      expect(answer.headers.getSetCookie().map((c) => c.includes('; Secure'))).toEqual([true, true]);
    });
  });

  describe('invitations', () => {
    it('invites (link shown once), accepts once with a valid password, then the member signs in', async () => {
      const email = uniqueEmail('Ana');
      const invited = await owner.request('POST', '/api/v1/team', { body: { email, name: 'Ana', role: 'agent' }, csrf: true });
      expect(invited.status).toBe(201);
      expect(invited.body).toEqual({
        id: expect.stringMatching(/^usr_[0-9A-Z]{26}$/),
        email: email.toLowerCase(),
        name: 'Ana',
        role: 'agent',
        status: 'invited',
        invite_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/accept-invite\?token=[A-Za-z0-9_-]{43}$/),
        created_at: expect.stringMatching(/Z$/),
      });
      const token = new URL(invited.body.invite_url).searchParams.get('token');
      const listed = await owner.request('GET', '/api/v1/team');
      expect(JSON.stringify(listed.body)).not.toContain(token);
      expect(listed.body.data[0]).toEqual({ ...invited.body, invite_url: undefined });

      // Not yet: an invited member has no password.
      expect((await new Browser(gw).login(email, PASSWORD)).status).toBe(401);
      const weak = await gw.request('POST', '/api/v1/team/accept', { body: { token, password: 'short' } });
      expect(weak.body.errors).toEqual([{ field: 'password', message: 'password must be 10 to 200 characters long' }]);
      const accepted = await gw.request('POST', '/api/v1/team/accept', { body: { token, password: PASSWORD } });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ id: invited.body.id, status: 'active', role: 'agent' });
      const again = await gw.request('POST', '/api/v1/team/accept', { body: { token, password: PASSWORD } });
      expectProblem(again, 400, 'validation-error');
      expect(again.body.errors).toEqual([{ field: 'token', message: expect.stringContaining('used or expired') }]);

      const ana = new Browser(gw);
      expect((await ana.login(email, PASSWORD)).status).toBe(200);
      expect((await ana.request('GET', '/api/v1/team/me')).body).toMatchObject({ id: invited.body.id, role: 'agent' });

      const twice = await owner.request('POST', '/api/v1/team', { body: { email: email.toUpperCase(), name: 'Ana again', role: 'admin' }, csrf: true });
      expectProblem(twice, 409, 'conflict');
      expect(twice.body.errors).toEqual([{ field: 'email', message: expect.any(String) }]);
    });

    it('refuses an expired invitation', async () => {
      const invited = await shortLived.request('POST', '/api/v1/team', { token: account.api_key, body: { email: uniqueEmail('late'), name: 'Late', role: 'agent' } });
      expect(invited.status).toBe(201);
      const token = new URL(invited.body.invite_url).searchParams.get('token');
      // The link is good for one second: once that has passed, it is refused.
      await pollUntil(() => Date.now() > Date.parse(invited.body.created_at) + 1500, { timeoutMs: 5000, description: 'the invitation to expire' });
      const late = await shortLived.request('POST', '/api/v1/team/accept', { body: { token, password: PASSWORD } });
      expect(late.body.errors).toEqual([{ field: 'token', message: expect.stringContaining('expired') }]);
    });

    it('validates the invitation body, naming each field', async () => {
      const answer = await owner.request('POST', '/api/v1/team', { body: { email: 'nope', name: '', role: 'boss' }, csrf: true });
      expectProblem(answer, 400, 'validation-error');
      expect(answer.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name', 'role']);
    });
  });

  describe('roles', () => {
    it('an agent may not manage team, API keys, webhooks or channels (403 naming the role); programs keep full access', async () => {
      const agent = await join('agent');
      const refused: [string, string, unknown?][] = [
        ['GET', '/api/v1/api-keys'],
        ['POST', '/api/v1/api-keys', { name: 'x' }],
        ['GET', '/api/v1/webhooks'],
        ['POST', '/api/v1/webhooks', { url: 'https://example.com/hook', events: ['message.received'] }],
        ['POST', '/api/v1/channels/whatsapp', { provider: 'cloud_api' }],
        ['POST', '/api/v1/team', { email: uniqueEmail('x'), name: 'X', role: 'agent' }],
        ['PATCH', `/api/v1/team/${agent.id}`, { role: 'admin' }],
        ['DELETE', `/api/v1/team/${agent.id}`],
      ];
      for (const [method, path, body] of refused) {
        const answer = await agent.browser.request(method, path, { body, csrf: true });
        expect({ method, path, status: answer.status, type: answer.body.type }).toEqual({ method, path, status: 403, type: `${PROBLEMS}/forbidden` });
        expect(answer.body.detail).toContain('"agent"');
      }
      // The same with the agent's bearer access token: the member is known from the token too.
      expect((await gw.request('GET', '/api/v1/api-keys', { token: agent.browser.accessToken })).status).toBe(403);
      // What an agent may do: see the team (to assign conversations), its own record.
      expect((await agent.browser.request('GET', '/api/v1/team')).status).toBe(200);
      expect((await agent.browser.request('GET', '/api/v1/team/me')).status).toBe(200);
      // API keys and client tokens act for the tenant: full access.
      expect((await gw.request('GET', '/api/v1/api-keys', { token: account.api_key })).status).toBe(200);
    });

    it('an admin manages keys and team but may not touch owners; the last owner stays', async () => {
      const admin = await join('admin');
      expect((await admin.browser.request('GET', '/api/v1/api-keys')).status).toBe(200);
      expect((await admin.browser.request('POST', '/api/v1/api-keys', { body: { name: 'by admin' }, csrf: true })).status).toBe(201);
      const agent = await join('agent', 'helper');
      const promoted = await admin.browser.request('PATCH', `/api/v1/team/${agent.id}`, { body: { role: 'admin' }, csrf: true });
      expect(promoted.body).toMatchObject({ id: agent.id, role: 'admin' });
      // The role counts at the next request of the member's session.
      expect((await agent.browser.request('GET', '/api/v1/api-keys')).status).toBe(200);

      const me = (await owner.request('GET', '/api/v1/team/me')).body;
      for (const [method, path, body] of [
        ['POST', '/api/v1/team', { email: uniqueEmail('boss'), name: 'Boss', role: 'owner' }],
        ['PATCH', `/api/v1/team/${agent.id}`, { role: 'owner' }],
        ['PATCH', `/api/v1/team/${me.id}`, { role: 'agent' }],
        ['DELETE', `/api/v1/team/${me.id}`, undefined],
      ] as const) {
        const answer = await admin.browser.request(method, path, { body, csrf: true });
        expect({ method, path, status: answer.status, detail: answer.body.detail }).toEqual({ method, path, status: 403, detail: expect.stringContaining('owner') });
      }

      // The only owner can be neither demoted nor removed, even by itself or a program.
      expectProblem(await owner.request('PATCH', `/api/v1/team/${me.id}`, { body: { role: 'admin' }, csrf: true }), 409, 'conflict');
      expectProblem(await gw.request('DELETE', `/api/v1/team/${me.id}`, { token: account.api_key }), 409, 'conflict');

      // Removing a member ends their session at once.
      expect((await owner.request('DELETE', `/api/v1/team/${agent.id}`, { csrf: true })).status).toBe(204);
      expectProblem(await agent.browser.request('GET', '/api/v1/team/me'), 401, 'unauthorized');
      expectProblem(await gw.request('GET', '/api/v1/team/me', { token: agent.browser.accessToken }), 401, 'unauthorized');
      expectProblem(await owner.request('DELETE', `/api/v1/team/${agent.id}`, { csrf: true }), 404, 'not-found');
    });

    it('pages the team list with cursors like every other list', async () => {
      const first = await gw.request('GET', '/api/v1/team?limit=2', { token: account.api_key });
      expect(first.body.data).toHaveLength(2);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const rest = await gw.request('GET', `/api/v1/team?limit=100&cursor=${first.body.next_cursor}`, { token: account.api_key });
      const ids = [...first.body.data, ...rest.body.data].map((m: { id: string }) => m.id);
      expect(ids).toEqual([...ids].sort().reverse());
      expect(new Set(ids).size).toBe(ids.length);
      expect(rest.body.data.at(-1)).toMatchObject({ role: 'owner', email: ownerEmail.toLowerCase() });
      expect((await gw.request('GET', '/api/v1/team?cursor=usr_01JUNKJUNKJUNKJUNKJUNKJUNK', { token: account.api_key })).body.errors).toEqual([
        { field: 'cursor', message: expect.any(String) },
      ]);
    });
  });

  describe('CSRF and the quota', () => {
    it('a cookie request that changes something needs X-CSRF-Token; a bearer one does not', async () => {
      const missing = await owner.request('POST', '/api/v1/api-keys', { body: { name: 'no token' } });
      expectProblem(missing, 403, 'forbidden');
      expect(missing.body.detail).toContain('X-CSRF-Token');
      expectProblem(await owner.request('POST', '/api/v1/api-keys', { body: { name: 'wrong' }, csrf: 'A'.repeat(43) }), 403, 'forbidden');
      // Another session's token does not fit this one.
      const other = new Browser(gw);
      await other.login(ownerEmail, PASSWORD);
      expectProblem(await owner.request('POST', '/api/v1/api-keys', { body: { name: 'other' }, csrf: other.cookies.get('parley_csrf') }), 403, 'forbidden');
      expect((await owner.request('DELETE', '/api/v1/api-keys/key_01JUNKJUNKJUNKJUNKJUNKJUNK')).status).toBe(403);

      expect((await owner.request('POST', '/api/v1/api-keys', { body: { name: 'with token' }, csrf: true })).status).toBe(201);
      expect((await owner.request('GET', '/api/v1/api-keys')).status).toBe(200);
      expect((await gw.request('POST', '/api/v1/api-keys', { token: account.api_key, body: { name: 'api key' } })).status).toBe(201);
      expect((await gw.request('POST', '/api/v1/api-keys', { token: owner.accessToken, body: { name: 'member token' } })).status).toBe(201);
      const names = (await gw.request('GET', '/api/v1/api-keys', { token: account.api_key })).body.data.map((k: { name: string }) => k.name);
      expect(names).toEqual(expect.arrayContaining(['with token', 'api key', 'member token']));
      expect(names).not.toEqual(expect.arrayContaining(['no token']));
    });

    it('member sessions do not spend the tenant’s API quota (limited per member instead); API keys do', async () => {
      const usage = async () => (await gw.request('GET', '/api/v1/usage', { token: account.api_key })).body.used_today as number;
      const before = await usage();
      for (let i = 0; i < 5; i++) {
        const answer = await owner.request('GET', '/api/v1/usage');
        expect(answer.status).toBe(200);
        // The tenant's count as it stands, untouched by this request.
        expect(answer.body.used_today).toBe(before);
        expect(answer.headers.get('ratelimit-policy')).toBe('"member-daily";q=20000;w=86400');
        expect(answer.headers.get('ratelimit')).toMatch(/^"member-daily";r=\d+;t=\d+$/);
      }
      expect((await gw.request('GET', '/api/v1/team', { token: owner.accessToken })).status).toBe(200);
      expect(await usage()).toBe(before + 1);
    });
  });

  describe('throttling, expiry and signing out', () => {
    it('locks an email after 10 failed sign-ins: the 11th attempt is refused with 429 even with the right password', async () => {
      const member = await join('agent', 'guessed');
      for (let i = 1; i <= 10; i++) expect({ attempt: i, status: (await new Browser(gw).login(member.email, `wrong password ${i}`)).status }).toEqual({ attempt: i, status: 401 });
      const locked = await new Browser(gw).login(member.email, PASSWORD);
      expectProblem(locked, 429, 'rate-limited');
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(850);
      expect(locked.headers.getSetCookie()).toEqual([]);
      // Counted per email: the owner still signs in.
      expect((await new Browser(gw).login(ownerEmail, PASSWORD)).status).toBe(200);
    });

    it('ends an idle session after SESSION_TTL_SECONDS (401), while use keeps it alive', async () => {
      const browser = new Browser(shortLived);
      expect((await browser.login(ownerEmail, PASSWORD)).status).toBe(200);
      const signedInAt = Date.now();
      // Used every half second, it outlives its 2-second idle time.
      await pollUntil(async () => (await browser.request('GET', '/api/v1/team/me')).status === 200 && Date.now() - signedInAt > 3000, {
        timeoutMs: 10_000,
        intervalMs: 500,
        description: 'the session to outlive its idle time while used',
      });
      expect((await browser.request('GET', '/api/v1/team/me')).status).toBe(200);
      const lastUse = Date.now();
      const ended = await pollUntil(
        async () => {
          if (Date.now() - lastUse < 2500) return false;
          const answer = await browser.request('GET', '/api/v1/team/me');
          return answer.status === 401 ? answer : false;
        },
        { timeoutMs: 10_000, intervalMs: 250, description: 'the idle session to end' },
      );
      expectProblem(ended, 401, 'unauthorized');
      expect(ended.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });

    it('signing out ends the session and its access token, and clears the cookies', async () => {
      const browser = new Browser(gw);
      await browser.login(ownerEmail, PASSWORD);
      const cookie = `parley_session=${browser.cookies.get('parley_session')}`;
      const out = await browser.request('POST', '/auth/logout');
      expect(out.status).toBe(204);
      expect(out.headers.getSetCookie().every((c) => c.includes('Max-Age=0'))).toBe(true);
      expect(browser.cookies.size).toBe(0);
      expectProblem(await gw.request('GET', '/api/v1/team/me', { headers: { cookie } }), 401, 'unauthorized');
      expectProblem(await gw.request('GET', '/api/v1/team/me', { token: browser.accessToken }), 401, 'unauthorized');
    });
  });

  describe('forgot password', () => {
    it('hands out a single-use link, answers 202 for any email, and the new password replaces the old', async () => {
      const member = await join('agent', 'forgetful');
      // The link's way out (mailed: see mail/platform-mail.integration-spec.ts; mail is off here), observed as it is called.
      const deliver = jest.spyOn(gw.app.get(MemberLinks), 'passwordReset');
      const answers = [
        await gw.request('POST', '/auth/password-reset', { body: { email: member.email.toUpperCase() } }),
        await gw.request('POST', '/auth/password-reset', { body: { email: uniqueEmail('stranger') } }),
      ];
      const calls = [...deliver.mock.calls];
      deliver.mockRestore();
      expect(answers.map((a) => [a.status, a.body])).toEqual([
        [202, ''],
        [202, ''],
      ]);
      expect(calls).toEqual([[expect.anything(), expect.objectContaining({ id: member.id }), expect.stringMatching(/\/dashboard\/reset-password\?token=[A-Za-z0-9_-]{43}$/), expect.any(Date), 'Team Bakery']]);
      const token = new URL(calls[0][2]).searchParams.get('token');

      const weak = await gw.request('POST', '/auth/password-reset/confirm', { body: { token, password: 'short' } });
      expect(weak.body.errors).toEqual([{ field: 'password', message: expect.any(String) }]);
      const newPassword = 'a brand new passphrase';
      expect((await gw.request('POST', '/auth/password-reset/confirm', { body: { token, password: newPassword } })).status).toBe(204);
      const reused = await gw.request('POST', '/auth/password-reset/confirm', { body: { token, password: 'yet another passphrase' } });
      expect(reused.body.errors).toEqual([{ field: 'token', message: expect.any(String) }]);

      // The sessions from before the reset ended; the old password no longer works, the new one does.
      expectProblem(await member.browser.request('GET', '/api/v1/team/me'), 401, 'unauthorized');
      expect((await new Browser(gw).login(member.email, PASSWORD)).status).toBe(401);
      expect((await new Browser(gw).login(member.email, newPassword)).status).toBe(200);
    });
  });

  describe('tenant isolation', () => {
    it('another tenant’s member is not found; a member signs in to the tenant named by tenant_id', async () => {
      const agent = await join('agent', 'isolated');
      const stranger = await gw.request('POST', '/api/v1/accounts', { body: { name: 'Stranger', email: agent.email, password: 'the strangers password' } });
      expect(stranger.status).toBe(201);
      for (const [method, body] of [['PATCH', { role: 'admin' }], ['DELETE', undefined]] as const) {
        expectProblem(await gw.request(method, `/api/v1/team/${agent.id}`, { token: stranger.body.api_key, body }), 404, 'not-found');
      }
      const strangerIds = (await gw.request('GET', '/api/v1/team', { token: stranger.body.api_key })).body.data.map((m: { id: string }) => m.id);
      expect(strangerIds).not.toContain(agent.id);

      // The same email in two teams: each password finds its own team, and tenant_id picks one explicitly.
      const inStranger = await new Browser(gw).login(agent.email, 'the strangers password');
      expect(new JwtService({ secret: TEST_JWT_SECRET }).verify(inStranger.body.access_token).sub).toBe(stranger.body.tenant_id);
      const inAccount = await new Browser(gw).login(agent.email, PASSWORD);
      expect(new JwtService({ secret: TEST_JWT_SECRET }).verify(inAccount.body.access_token).sub).toBe(account.tenant_id);
      expect((await new Browser(gw).login(agent.email, PASSWORD, { tenant_id: stranger.body.tenant_id })).status).toBe(401);
      const strangerBrowser = new Browser(gw);
      expect((await strangerBrowser.login(agent.email, 'the strangers password', { tenant_id: stranger.body.tenant_id })).status).toBe(200);
      expectProblem(await strangerBrowser.request('PATCH', `/api/v1/team/${agent.id}`, { body: { role: 'admin' }, csrf: true }), 404, 'not-found');
    });
  });
});
