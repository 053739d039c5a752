/* eslint-disable @typescript-eslint/no-explicit-any -- answers are checked field by field */
import { pollUntil } from '@parley/testing';
import { http, type HttpResponse } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// Issue 32, the backend of a dashboard a team can live in, end to end over public HTTP and real SMTP, on real Kafka and
// PostgreSQL: an invitation mailed by the platform into the sandbox's SMTP sink and accepted from its link, an
// `agent` member who answers but is refused what is not theirs (403 naming the role), inbox search finding what
// customers wrote in two languages, the customer's last message for the preview, delivery ticks in the thread, and the
// playground's conversations kept apart; and a handoff routed to the team member whose dashboard is open (issue 35). One
// platform for the file.

const PASSWORD = 'correct horse battery';
const TIMEOUT = { timeoutMs: 45_000, intervalMs: 250 };
const AGENT = {
  name: 'support',
  instruction: 'You are the assistant of Fjord Bikes, a bicycle shop.',
  greeting: '',
  skills: ['faq_responder'],
  faqs: [{ question: 'Do you repair e-bike batteries?', answer: 'Yes: we test and replace e-bike batteries within two days.' }],
};

interface SandboxEmail {
  envelope_to: string[];
  from: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
}

describe('a team’s dashboard backend: mailed invitations, roles, inbox search, preview, ticks and the playground apart', () => {
  let platform: Platform;
  let apiKey: string;
  let ownerToken: string;
  let kariToken: string;
  let number: string;
  const owner = { email: `olivia.${Date.now()}@fjord.example`, name: 'Olivia' };
  const kari = { email: `kari.${Date.now()}@fjord.example`, name: 'Kari Nordmann' };

  const api = <T = any>(token: string, method: string, path: string, json?: unknown): Promise<HttpResponse<T>> => http<T>(method, `${platform.gateway}${path}`, { token, json });
  const mailTo = (address: string, count = 1) =>
    pollUntil(
      async () => {
        const mails = (await http<{ data: SandboxEmail[] }>('GET', `${platform.sandbox}/_sandbox/email/messages?to=${encodeURIComponent(address)}`)).body.data;
        return mails.length >= count ? mails[0] : undefined; // newest first
      },
      { ...TIMEOUT, description: `mail ${count} to ${address} at the sandbox's SMTP sink` },
    );
  const linkIn = (mail: SandboxEmail, path: string) => {
    const link = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]{43}`).exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);
    return link!;
  };
  const signIn = async (email: string, password = PASSWORD) => {
    const answer = await http<{ access_token: string }>('POST', `${platform.gateway}/auth/login`, { json: { email, password } });
    expect(answer.status).toBe(200);
    return answer.body.access_token;
  };

  beforeAll(async () => {
    platform = await sharedPlatform();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, {
      json: { name: 'Fjord Bikes', email: owner.email, password: PASSWORD, owner_name: owner.name },
    });
    expect(account.status).toBe(201);
    apiKey = account.body.api_key;
    ownerToken = await signIn(owner.email);
    expect((await api(apiKey, 'PUT', `/api/v1/agents/${AGENT.name}`, AGENT)).status).toBe(201);
    number = (await api(apiKey, 'GET', '/api/v1/channels')).body.data[0].phone_number;
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  it('mails the invitation to the sandbox’s SMTP sink; its accept page names the business and who invited; the link makes Kari a member', async () => {
    const invited = await api(ownerToken, 'POST', '/api/v1/team', { email: kari.email, name: kari.name, role: 'agent' });
    expect(invited.status).toBe(201);
    const mail = await mailTo(kari.email);
    expect(mail.subject).toBe('Olivia invited you to join Fjord Bikes on Parley');
    expect(mail.text).toContain('as an agent (answering customers in the inbox)');
    const link = linkIn(mail, '/dashboard/accept-invite');
    const token = new URL(link).searchParams.get('token');

    const page = await http<any>('GET', `${platform.gateway}/api/v1/team/accept?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ email: kari.email, name: kari.name, role: 'agent', business: { name: 'Fjord Bikes' }, invited_by: { name: 'Olivia', email: owner.email } });
    // The link leads to the dashboard's accept page, served by the gateway.
    expect((await http('GET', link)).status).toBe(200);
    expect((await http('POST', `${platform.gateway}/api/v1/team/accept`, { json: { token, password: PASSWORD } })).status).toBe(200);
    kariToken = await signIn(kari.email);
    expect((await api(kariToken, 'GET', '/api/v1/team/me')).body).toMatchObject({ name: kari.name, role: 'agent', permissions: ['conversations.reply', 'contacts.edit', 'messages.send'] });
  }, 120_000);

  it('refuses the agent what is not theirs with 403 naming the role; the owner and the API key may', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/v1/campaigns'],
      ['PUT', `/api/v1/agents/${AGENT.name}`, AGENT],
      ['GET', '/api/v1/contacts/export'],
      ['GET', '/api/v1/billing/wallet'],
      ['POST', '/api/v1/channels/sms', { provider: 'sandbox', phone_number: '+14155550177' }],
    ] as [string, string, unknown?][]) {
      const answer = await api(kariToken, method, path, body);
      expect({ path, status: answer.status, type: answer.body.type, role: answer.body.detail?.includes('"agent"') }).toEqual({
        path,
        status: 403,
        type: 'https://parley.dev/problems/forbidden',
        role: true,
      });
    }
    expect((await api(ownerToken, 'GET', '/api/v1/campaigns')).status).toBe(200);
    expect((await api(apiKey, 'GET', '/api/v1/contacts/export')).status).toBe(200);
  });

  it('finds what customers wrote, keeps the playground apart, previews the customer’s words and ticks the replies', async () => {
    // Kari tries the agent in the playground: that customer's conversation is the playground's.
    const tester = '+14155550142';
    const played = await api(kariToken, 'POST', '/api/v1/playground/inbound', { from: tester, to: number, text: 'Hi, my batteries died after two weeks, is that under warranty?' });
    expect(played.status).toBe(200);
    // A real customer writes in Spanish through the sandbox, as WhatsApp would deliver it.
    const customer = '+14155550143';
    const wrote = await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: number, text: 'Hola, ¿la garantía cubre la batería de mi bicicleta eléctrica?' } });
    expect(wrote.status).toBe(200);

    const list = async (query: string) => (await api(kariToken, 'GET', `/api/v1/conversations?${query}`)).body.data as any[];
    const [playground, real] = await pollUntil(
      async () => {
        const all = await list('limit=50');
        const p = all.find((c) => c.customer === tester);
        const r = all.find((c) => c.customer === customer);
        // Both answered by the agent (its reply is their last message).
        return p && r && p.last_message?.author.type === 'agent' && r.last_message?.author.type === 'agent' ? [p, r] : undefined;
      },
      { ...TIMEOUT, description: 'both conversations answered by the agent' },
    );
    expect(playground.source).toBe('playground');
    expect(real.source).toBe('customer');
    expect(real.last_customer_message).toMatchObject({ text: 'Hola, ¿la garantía cubre la batería de mi bicicleta eléctrica?', author: { type: 'customer' } });

    // Search: other forms of the words, without accents, in English and Spanish.
    expect((await list('q=battery')).map((c) => c.id)).toEqual([playground.id]);
    expect((await list('q=garantia')).map((c) => c.id)).toEqual([real.id]);
    expect((await list('q=baterias%20bicicleta')).map((c) => c.id)).toEqual([real.id]);
    expect(await list('q=helmet')).toEqual([]);
    // The inbox without the playground, and the playground alone.
    expect((await list('source=customer')).map((c) => c.id)).toEqual([real.id]);
    expect((await list('source=playground')).map((c) => c.id)).toEqual([playground.id]);
    // Bad input names its field.
    const bad = await api(kariToken, 'GET', '/api/v1/conversations?source=tests');
    expect({ status: bad.status, fields: bad.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ status: 400, fields: ['source'] });

    // Ticks: the agent's reply to the customer goes sent → delivered → read at the sandbox.
    const thread = await pollUntil(
      async () => {
        const record = (await api(kariToken, 'GET', `/api/v1/conversations/${real.id}`)).body;
        return record.messages.find((m: any) => m.role === 'agent')?.status === 'read' ? record : undefined;
      },
      { ...TIMEOUT, description: "the agent's reply read, in the thread" },
    );
    expect(thread.messages.find((m: any) => m.role === 'customer').status).toBeUndefined();
  }, 180_000);

  it('routes a handoff to the team member whose dashboard is open, and has the customer told once to wait while she is away', async () => {
    const kariId: string = (await api(kariToken, 'GET', '/api/v1/team/me')).body.id;
    const allDay = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]));
    const body = { name: 'Support', members: [kariId], routing: 'round_robin', capacity_per_member: 5, timezone: 'Europe/Oslo', business_hours: allDay, sla: { first_response_seconds: 900 } };
    const stranger = await api(ownerToken, 'POST', '/api/v1/teams', { ...body, members: ['usr_01JD8Z9D1B2C3D4E5F6G7H8J9K'] });
    expect({ status: stranger.status, fields: stranger.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ status: 400, fields: ['members[0]'] });
    expect((await api(kariToken, 'POST', '/api/v1/teams', body)).status).toBe(403);
    const team = await api(ownerToken, 'POST', '/api/v1/teams', body);
    expect(team.status).toBe(201);
    expect(team.body).toMatchObject({ id: expect.stringMatching(/^tea_/), open_now: true });

    // Kari's dashboard holds the events stream open: that is her presence.
    const dashboard = new AbortController();
    const stream = await fetch(`${platform.gateway}/api/v1/events/stream`, { headers: { authorization: `Bearer ${kariToken}` }, signal: dashboard.signal });
    expect(stream.status).toBe(200);
    try {
      await pollUntil(async () => (await api(ownerToken, 'GET', '/api/v1/team/presence')).body.data.find((p: any) => p.member_id === kariId)?.available, {
        ...TIMEOUT,
        description: 'Kari available',
      });
      const customer = '+14155550144';
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: number, text: 'I want to talk to a person please' } })).status).toBe(200);
      const routed = await pollUntil(async () => ((await api(kariToken, 'GET', '/api/v1/conversations?assignee=me')).body.data as any[]).find((c) => c.customer === customer), {
        ...TIMEOUT,
        description: 'the handoff assigned to Kari',
      });
      expect(routed).toMatchObject({ state: 'handed_off', team_id: team.body.id, labels: [], sla: { first_response_due_at: expect.any(String), breached: false } });

      // Away: the next handoff waits in the queue, and its customer hears so once, with the team's target.
      expect((await api(kariToken, 'PUT', '/api/v1/team/me/presence', { status: 'away' })).body).toMatchObject({ member_id: kariId, status: 'away', available: false });
      const other = '+14155550145';
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: other, to: number, text: 'I want to speak to a human please' } })).status).toBe(200);
      const waiting = await pollUntil(
        async () => {
          const found = ((await api(ownerToken, 'GET', '/api/v1/conversations?state=handed_off')).body.data as any[]).find((c) => c.customer === other);
          return found?.last_message?.text.includes('busy') ? found : undefined;
        },
        { ...TIMEOUT, description: 'the waiting message in the second conversation' },
      );
      expect(waiting).toMatchObject({ assignee: null, team_id: team.body.id });
      expect(waiting.last_message.text).toContain('usually within 15 minutes');

      // The day's report: both handoffs with the team; Kari (an agent) sees only the conversation she holds.
      const today = new Date().toISOString().slice(0, 10);
      const byTeam = (await api(ownerToken, 'GET', `/api/v1/reports/conversations?from=${today}&to=${today}&group_by=team`)).body.data as any[];
      expect(byTeam.find((row) => row.key === team.body.id)).toMatchObject({ opened: 2, handed_off: 2, resolved_by_agent: 0 });
      const mine = (await api(kariToken, 'GET', `/api/v1/reports/conversations?from=${today}&to=${today}&group_by=member`)).body.data as any[];
      expect(mine).toEqual([expect.objectContaining({ key: kariId, opened: 1, handed_off: 1 })]);
      const csv = await http('GET', `${platform.gateway}/api/v1/reports/conversations.csv?from=${today}&to=${today}`, { token: ownerToken });
      expect(csv.text.split('\n')[0]).toBe('id,channel,customer,contact_name,team_id,assignee,state,labels,started_at,handed_off_at,first_response_at,closed_at,first_response_s,resolution_s,sla_breached');
      expect(csv.text).toContain(routed.id);
      const backwards = await api(ownerToken, 'GET', `/api/v1/reports/conversations?from=${today}&to=2020-01-01`);
      expect({ status: backwards.status, fields: backwards.body.errors?.map((e: { field: string }) => e.field) }).toEqual({ status: 400, fields: ['to'] });
    } finally {
      dashboard.abort();
    }
  }, 180_000);

  it('mails a password reset link that sets a new password', async () => {
    expect((await http('POST', `${platform.gateway}/auth/password-reset`, { json: { email: kari.email } })).status).toBe(202);
    const mail = await mailTo(kari.email, 2);
    expect(mail.subject).toBe('Reset your Parley password for Fjord Bikes');
    const token = new URL(linkIn(mail, '/dashboard/reset-password')).searchParams.get('token');
    expect((await http('POST', `${platform.gateway}/auth/password-reset/confirm`, { json: { token, password: 'a new passphrase for kari' } })).status).toBe(204);
    await signIn(kari.email, 'a new passphrase for kari');
  }, 120_000);
});
