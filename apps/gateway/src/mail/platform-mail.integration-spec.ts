import { SmtpSink, pollUntil, type SunkMail } from '@parley/testing';
import { DataSource } from 'typeorm';
import { GatewayTestApp, type HttpAnswer, type CreatedAccount } from '../test/gateway-test-app';
import { Browser, MEMBER_PASSWORD, signedInMember } from '../test/member-browser';
import { OutgoingMailStore } from './outgoing-mail.store';

const FROM = 'team@parley.test';
let counter = 0;
const uniqueEmail = (who: string) => `${who}.${Date.now()}.${++counter}@example.com`;

/** The link a mail carries (the same in its text and its HTML part). */
function linkIn(mail: SunkMail, path: string): string {
  const text = mail.parsed.text ?? '';
  const link = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]{43}`).exec(text)?.[0];
  if (!link) throw new Error(`no ${path} link in: ${text}`);
  expect(mail.parsed.html).toContain(`href="${link}"`);
  return link;
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/**
 * The platform's own mail (issue 32): invitations and password resets go out over real SMTP (nodemailer to an
 * smtp-server sink on a free port) from a durable outbox, with a plain-text and an HTML part; a server that refuses
 * for now or is down loses nothing, a permanent refusal is not retried, a withdrawn invitation's mail never goes.
 * One gateway on real PostgreSQL, Redis and Kafka.
 */
describe('gateway: the platform’s mail over SMTP (real SMTP, PostgreSQL, Redis and Kafka)', () => {
  let sink: SmtpSink;
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let ownerEmail: string;
  let owner: Browser;
  let outbox: OutgoingMailStore;

  const env = () => ({ PASSWORD_SCRYPT_LOG_N: '14', MAIL_SMTP_URL: sink.url, MAIL_FROM: `Parley Team <${FROM}>`, MAIL_RETRY_SCHEDULE_MS: '200,400' });
  const invite = (email: string, name: string, role = 'agent'): Promise<HttpAnswer> => owner.request('POST', '/api/v1/team', { body: { email, name, role }, csrf: true });
  const mailTo = (email: string, count = 1) =>
    pollUntil(() => (sink.to(email).length >= count ? sink.to(email)[count - 1] : undefined), { timeoutMs: 20_000, description: `mail number ${count} to ${email}` });

  beforeAll(async () => {
    sink = await SmtpSink.start();
    gw = await GatewayTestApp.start('gwmail', env());
    outbox = gw.app.get(OutgoingMailStore);
    ownerEmail = uniqueEmail('olivia');
    const created = await gw.request('POST', '/api/v1/accounts', { body: { name: 'Fjord Bikes', email: ownerEmail, password: MEMBER_PASSWORD, owner_name: 'Olivia' } });
    expect(created.status).toBe(201);
    account = created.body;
    owner = new Browser(gw);
    expect((await owner.login(ownerEmail, MEMBER_PASSWORD)).status).toBe(200);
  });

  afterAll(async () => {
    await gw?.close();
    await sink?.close();
  });

  it('mails an invitation naming the business and the inviter, in a text and an HTML part; its accept page and link work', async () => {
    const email = uniqueEmail('kari');
    const invited = await invite(email, 'Kari');
    expect(invited.status).toBe(201);

    const mail = await mailTo(email);
    expect(mail.envelopeFrom).toBe(FROM);
    expect(mail.parsed.from?.value).toEqual([{ name: 'Parley Team', address: FROM }]);
    expect(mail.parsed.subject).toBe('Olivia invited you to join Fjord Bikes on Parley');
    expect(mail.parsed.text).toContain('Hello Kari,');
    expect(mail.parsed.text).toContain(`Olivia (${ownerEmail.toLowerCase()}) invited you to join Fjord Bikes on Parley as an agent`);
    expect(mail.parsed.html).toContain('<strong>Fjord Bikes</strong>');
    const link = linkIn(mail, '/dashboard/accept-invite');
    // The link mailed is the one answered (shown once).
    expect(link).toBe(invited.body.invite_url);

    // The accept page's API names the business and who invited, without using the token up.
    const page = await gw.request('GET', `/api/v1/team/accept?token=${tokenOf(link)}`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      email: email.toLowerCase(),
      name: 'Kari',
      role: 'agent',
      business: { name: 'Fjord Bikes' },
      invited_by: { name: 'Olivia', email: ownerEmail.toLowerCase() },
      expires_at: expect.stringMatching(/Z$/),
    });
    expect(Date.parse(page.body.expires_at) - Date.parse(invited.body.created_at)).toBeGreaterThan(6.9 * 86_400_000);

    const accepted = await gw.request('POST', '/api/v1/team/accept', { body: { token: tokenOf(link), password: MEMBER_PASSWORD } });
    expect(accepted.status).toBe(200);
    expect((await new Browser(gw).login(email, MEMBER_PASSWORD)).status).toBe(200);
    // Used: the page says so, naming the field.
    const used = await gw.request('GET', `/api/v1/team/accept?token=${tokenOf(link)}`);
    expect(used.status).toBe(400);
    expect(used.body.errors).toEqual([{ field: 'token', message: expect.stringContaining('unknown, used or expired') }]);
    await untilNothingOwed();
  });

  /** The outbox records a mail as sent once the server's answer is in, a moment after the sink holds it. */
  const untilNothingOwed = () =>
    pollUntil(async () => (await outbox.owed(account.tenant_id)).length === 0, { description: "the tenant's mail recorded as sent (none owed)" });

  it('answers a bad or missing token on the accept page with 400 problem+json naming token', async () => {
    for (const query of ['?token=not-a-real-token', '', `?token=${'x'.repeat(201)}`]) {
      const answer = await gw.request('GET', `/api/v1/team/accept${query}`);
      expect({ query, status: answer.status, media: answer.headers.get('content-type'), fields: answer.body.errors?.map((e: { field: string }) => e.field) }).toEqual({
        query,
        status: 400,
        media: expect.stringContaining('application/problem+json'),
        fields: ['token'],
      });
    }
  });

  it('answers the invitation at once while the SMTP server refuses for now (451), and retries until it takes the mail', async () => {
    const before = sink.attempts;
    sink.refuseNext(2, 451);
    const email = uniqueEmail('retry');
    const started = Date.now();
    expect((await invite(email, 'Retry')).status).toBe(201);
    expect(Date.now() - started).toBeLessThan(3000);
    const mail = await mailTo(email);
    expect(sink.attempts - before).toBe(3);
    expect(mail.parsed.subject).toContain('Fjord Bikes');
    await untilNothingOwed();
  });

  it('keeps the mail (encrypted) while the SMTP server is down, and another instance sends it once it is back', async () => {
    await sink.pause();
    const other = await gw.sibling(env());
    const email = uniqueEmail('durable');
    let link: string;
    try {
      const otherOwner = new Browser(other);
      expect((await otherOwner.login(ownerEmail, MEMBER_PASSWORD)).status).toBe(200);
      const invited = await otherOwner.request('POST', '/api/v1/team', { body: { email, name: 'Durable', role: 'admin' }, csrf: true });
      expect(invited.status).toBe(201);
      link = invited.body.invite_url;
      const owed = await pollUntil(async () => (await outbox.owed(account.tenant_id)).find((m) => m.recipient === email.toLowerCase() && m.attempts >= 1 && m.lastError), {
        description: 'a failed attempt recorded',
      });
      expect(owed).toEqual({ kind: 'invitation', recipient: email.toLowerCase(), attempts: expect.any(Number), lastError: expect.stringContaining('could not be reached') });
      // The link is a credential: what waits in the outbox is encrypted.
      const rows: { content: string }[] = await gw.app.get(DataSource).query(`SELECT content FROM outgoing_mail WHERE recipient = $1`, [email.toLowerCase()]);
      expect(rows).toHaveLength(1);
      expect(rows[0].content).toMatch(/^v1:/);
      expect(rows[0].content).not.toContain(tokenOf(link));
      expect(rows[0].content).not.toContain('Fjord');
    } finally {
      // The instance that queued it goes away; the server comes back.
      await other.close();
      await sink.listen();
    }
    const mail = await mailTo(email);
    expect(linkIn(mail, '/dashboard/accept-invite')).toBe(link);
    expect(mail.parsed.text).toContain('as an admin');
  });

  it('does not retry a permanent refusal (550)', async () => {
    const before = sink.attempts;
    sink.refuseNext(1, 550);
    const email = uniqueEmail('nobody');
    expect((await invite(email, 'Nobody')).status).toBe(201);
    await pollUntil(async () => sink.attempts > before && (await outbox.owed(account.tenant_id)).length === 0, { description: 'the refused mail dropped' });
    expect(sink.attempts - before).toBe(1);
    expect(sink.to(email)).toEqual([]);
  });

  it('withdrawing an invitation takes its unsent mail with it', async () => {
    await sink.pause();
    const withdrawn = uniqueEmail('withdrawn');
    const invited = await invite(withdrawn, 'Withdrawn');
    await pollUntil(async () => (await outbox.owed(account.tenant_id)).some((m) => m.recipient === withdrawn.toLowerCase()), { description: 'the mail queued' });
    expect((await owner.request('DELETE', `/api/v1/team/${invited.body.id}`, { csrf: true })).status).toBe(204);
    expect(await outbox.owed(account.tenant_id)).toEqual([]);
    await sink.listen();
    // A later invitation goes out; the withdrawn one never does.
    const later = uniqueEmail('later');
    expect((await invite(later, 'Later')).status).toBe(201);
    await mailTo(later);
    expect(sink.to(withdrawn)).toEqual([]);
  });

  it('sends an invitation again: a new link and mail, the old link dead; not once accepted, nor an owner by an admin', async () => {
    const email = uniqueEmail('again');
    const invited = await invite(email, 'Again');
    const first = linkIn(await mailTo(email), '/dashboard/accept-invite');
    const again = await owner.request('POST', `/api/v1/team/${invited.body.id}/invitation`, { csrf: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: invited.body.id, status: 'invited', invite_url: expect.stringContaining('/dashboard/accept-invite?token=') });
    const second = linkIn(await mailTo(email, 2), '/dashboard/accept-invite');
    expect(second).toBe(again.body.invite_url);
    expect(second).not.toBe(first);
    expect((await gw.request('GET', `/api/v1/team/accept?token=${tokenOf(first)}`)).status).toBe(400);
    expect((await gw.request('POST', '/api/v1/team/accept', { body: { token: tokenOf(second), password: MEMBER_PASSWORD } })).status).toBe(200);
    const accepted = await owner.request('POST', `/api/v1/team/${invited.body.id}/invitation`, { csrf: true });
    expect({ status: accepted.status, type: accepted.body.type }).toEqual({ status: 409, type: 'https://parley.dev/problems/conflict' });

    const invitedOwner = await invite(uniqueEmail('co-owner'), 'Co-owner', 'owner');
    const admin = await signedInMember(gw, account.api_key, 'admin');
    const byAdmin = await admin.browser.request('POST', `/api/v1/team/${invitedOwner.body.id}/invitation`, { csrf: true });
    expect({ status: byAdmin.status, detail: byAdmin.body.detail }).toEqual({ status: 403, detail: expect.stringContaining('"admin" may not invite, change or remove an owner') });
    const agent = await signedInMember(gw, account.api_key, 'agent');
    expect((await agent.browser.request('POST', `/api/v1/team/${invited.body.id}/invitation`, { csrf: true })).status).toBe(403);

    // Another tenant's member does not exist here.
    const stranger = await gw.signUp('Stranger Bikes');
    expect((await gw.request('POST', `/api/v1/team/${invited.body.id}/invitation`, { token: stranger.api_key })).status).toBe(404);
  });

  it('mails a password reset link for the business, which sets the new password; an unknown email gets nothing', async () => {
    const stranger = uniqueEmail('stranger');
    expect((await gw.request('POST', '/auth/password-reset', { body: { email: stranger } })).status).toBe(202);
    const before = sink.to(ownerEmail).length;
    expect((await gw.request('POST', '/auth/password-reset', { body: { email: ownerEmail.toUpperCase() } })).status).toBe(202);
    const mail = await mailTo(ownerEmail, before + 1);
    expect(mail.parsed.subject).toBe('Reset your Parley password for Fjord Bikes');
    expect(mail.parsed.text).toContain('Hello Olivia,');
    const link = linkIn(mail, '/dashboard/reset-password');
    const newPassword = 'a brand new passphrase';
    expect((await gw.request('POST', '/auth/password-reset/confirm', { body: { token: tokenOf(link), password: newPassword } })).status).toBe(204);
    expect((await new Browser(gw).login(ownerEmail, newPassword)).status).toBe(200);
    // The stranger's reset, asked for first, sent nothing.
    expect(sink.to(stranger)).toEqual([]);
    expect((await owner.login(ownerEmail, newPassword)).status).toBe(200);
  });
});
