import { pollUntil } from '@parley/testing';
import { join } from 'node:path';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { Screenshots, launchBrowser, type Browser } from './dashboard/browser';
import { openPage, settled, signInWithPassword } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// Teams and routing in a real Chromium (issue 35, CONTRACT.md §18): the owner makes a Sales team (the default, nobody
// in it yet) and a Support team of their own, open around the clock, and a rule sending refunds to Support; with the
// dashboard open they are available, so a customer asking a person about a refund lands with them, in Support, with
// its first-reply due time; they label it, and a handoff about something else waits in Sales. It fits a phone.

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

interface Conversation {
  id: string;
  customer: string;
  assignee: string | null;
  team_id: string | null;
  labels: string[];
  sla: { first_response_due_at: string | null; breached: boolean } | null;
}

describe('Dashboard in a real browser: teams, routing rules and presence', () => {
  let platform: Platform;
  let browser: Browser;
  let token: string;
  let number: string;
  const shots = new Screenshots(join(__dirname, '..', '..', '..', 'test-artifacts', 'dashboard-teams'));
  const owner = { email: 'owner@lakeside-bikes.example', password: 'derailleur-and-chain-2026', owner_name: 'Ingrid Lake' };
  const api = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });
  const conversations = async () => (await api<{ data: Conversation[] }>('GET', '/api/v1/conversations?limit=50')).body.data;

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Lakeside Bikes', ...owner } });
    expect(account.status).toBe(201);
    token = account.body.api_key;
    const agent = { name: 'front-desk', instruction: 'You are the front desk of Lakeside Bikes.', greeting: '', skills: ['faq_responder'], faqs: [] };
    expect((await api('PUT', '/api/v1/agents/front-desk', agent)).status).toBe(201);
    number = (await api<{ data: { phone_number: string }[] }>('GET', '/api/v1/channels')).body.data[0].phone_number;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  it('routes a refund to the owner’s Support team while their dashboard is open, labels it, queues the rest in Sales, and fits a phone', async () => {
    const { page } = browser;
    await signInWithPassword(page, platform.gateway, owner);
    await openPage(page, 'Teams', 'Teams');

    // Sales: made first, so it is the default team; nobody in it yet.
    await page.getByRole('button', { name: 'New team' }).click();
    let form = page.getByRole('form', { name: 'New team' });
    await form.getByLabel('Name', { exact: true }).fill('Sales');
    await form.getByRole('button', { name: 'Create team' }).click();
    const listed = page.getByRole('table', { name: 'Teams' });
    await listed.getByTestId('team').filter({ hasText: 'Sales' }).waitFor();

    // Support: the owner, open around the clock (00:00 to midnight every day).
    await page.getByRole('button', { name: 'New team' }).click();
    form = page.getByRole('form', { name: 'New team' });
    await form.getByLabel('Name', { exact: true }).fill('Support');
    await form.getByRole('checkbox', { name: /Ingrid Lake/ }).check();
    for (const day of WEEK) {
      const hours = form.getByTestId(`hours-${day}`);
      const open = hours.getByRole('checkbox', { name: 'Open' });
      if (!(await open.isChecked())) await open.check();
      await hours.getByLabel(/range 1 from/).fill('00:00');
      await hours.getByLabel(/range 1 to/).fill('00:00');
    }
    await form.getByLabel('First reply within', { exact: true }).fill('15');
    await form.getByRole('button', { name: 'Create team' }).click();
    const supportRow = listed.getByTestId('team').filter({ hasText: 'Support' });
    await supportRow.waitFor();
    expect(await supportRow.getAttribute('data-open')).toBe('true');
    expect(await supportRow.textContent()).toMatch(/^Supportyou/); // the signed-in member is "you"
    const teams = (await api<{ data: { id: string; name: string; members: string[]; open_now: boolean; business_hours: Record<string, string[][]>; sla: unknown }[] }>('GET', '/api/v1/teams')).body.data;
    const [sales, support] = teams;
    expect([sales.name, support.name]).toEqual(['Sales', 'Support']);
    expect(support).toMatchObject({ open_now: true, business_hours: Object.fromEntries(WEEK.map((d) => [d, [['00:00', '24:00']]])), sla: { first_response_seconds: 900 } });
    expect(support.members).toHaveLength(1);

    // A rule: refunds to Support.
    const rules = page.getByRole('form', { name: 'Routing rules' });
    await rules.getByRole('button', { name: 'Add a rule' }).click();
    await rules.getByLabel('Rule 1: the customer’s message').fill('refund');
    await rules.getByLabel('Rule 1: send to team').selectOption({ label: 'Support' });
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await rules.getByRole('status').getByText('Saved.').waitFor();
    expect((await api('GET', '/api/v1/routing-rules')).body).toEqual({ data: [{ match: { keyword: 'refund' }, team_id: support.id }] });
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'teams');
    await shots.take(page, 'teams');

    // The dashboard is open: the owner is available.
    const me = (await http<{ id: string }>('GET', `${platform.gateway}/api/v1/team/me`, { token: await ownerToken() })).body.id;
    await pollUntil(async () => (await api<{ data: { member_id: string; available: boolean }[] }>('GET', '/api/v1/team/presence')).body.data.find((p) => p.member_id === me)?.available, {
      timeoutMs: 30_000,
      description: 'the owner available',
    });

    // A customer asks for a person about a refund; another about something else.
    const refund = '+14155550161';
    const other = '+14155550162';
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: refund, to: number, text: 'I want to talk to a person about a refund' } })).status).toBe(200);
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: other, to: number, text: 'I want to talk to a person please' } })).status).toBe(200);
    const [routed, waiting] = await pollUntil(
      async () => {
        const all = await conversations();
        const r = all.find((c) => c.customer === refund);
        const w = all.find((c) => c.customer === other);
        return r?.assignee && w?.team_id ? [r, w] : undefined;
      },
      { timeoutMs: 45_000, description: 'both handoffs routed' },
    );
    expect(routed).toMatchObject({ assignee: me, team_id: support.id });
    expect(waiting).toMatchObject({ assignee: null, team_id: sales.id });

    // In the inbox: the refund is the owner's, in Support, with its first reply due; they label it.
    await openPage(page, 'Inbox', 'Inbox');
    await page.goto(`${platform.gateway}/dashboard/inbox/${routed.id}`);
    const meta = page.getByTestId('conversation-labels');
    await meta.waitFor();
    expect(await page.getByTestId('thread-team-name').textContent()).toContain('Support');
    expect(await page.getByTestId('thread-team').inputValue()).toBe(support.id);
    expect(await page.getByTestId('sla-status').first().textContent()).toMatch(/^First reply due in 1[45] min$/);
    expect(await page.getByRole('switch', { name: 'Available' }).isChecked()).toBe(true);
    await meta.getByLabel('Add a label').fill('refund');
    await meta.getByLabel('Add a label').press('Enter');
    await meta.getByRole('list', { name: 'Labels' }).getByText('refund').waitFor();
    await pollUntil(async () => (await conversations()).find((c) => c.id === routed.id)?.labels.includes('refund'), { timeoutMs: 15_000, description: 'the label saved' });
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'a routed conversation');
    await shots.take(page, 'routed-conversation');

    // On a phone: the Teams page fits without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, 'Teams', 'Teams');
    await settled(page);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'))).toBeLessThanOrEqual(0);
    await shots.take(page, 'teams-phone');
  }, 240_000);

  it('reports the day as it happened: conversations, what the AI resolved alone, handoffs and the customer’s rating', async () => {
    const { page } = browser;
    // Two customers the agent answers alone (beside the two handoffs above).
    for (const [from, text] of [
      ['+14155550163', 'Hello, do you rent bikes?'],
      ['+14155550164', 'Hi there'],
    ]) {
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from, to: number, text } })).status).toBe(200);
    }
    await pollUntil(async () => ((await conversations()).length === 4 ? true : undefined), { timeoutMs: 45_000, description: 'four conversations' });
    // The refund: answered by the owner, closed; the customer answers the rating question with a 5.
    const refund = (await conversations()).find((c) => c.customer === '+14155550161')!;
    const owner = await ownerToken();
    expect((await http('POST', `${platform.gateway}/api/v1/conversations/${refund.id}/messages`, { token: owner, json: { message: 'Your refund is on its way.' } })).status).toBe(201);
    expect((await http('PATCH', `${platform.gateway}/api/v1/conversations/${refund.id}`, { token: owner, json: { state: 'closed' } })).status).toBe(200);
    await pollUntil(
      async () => {
        const messages = (await http<{ messages: { text: string }[] }>('GET', `${platform.gateway}/api/v1/conversations/${refund.id}`, { token })).body.messages;
        return messages.some((m) => m.text.includes('How would you rate')) ? true : undefined;
      },
      { timeoutMs: 30_000, description: 'the rating question in the thread' },
    );
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: '+14155550161', to: number, text: '5' } })).status).toBe(200);
    await pollUntil(async () => (await http<{ rating: { score: number } | null }>('GET', `${platform.gateway}/api/v1/conversations/${refund.id}`, { token })).body.rating?.score === 5 || undefined, {
      timeoutMs: 30_000,
      description: 'the rating kept',
    });

    // What the day was, counted here: 4 conversations, 2 handed to a person, 2 resolved by the agent alone, 1 closed, one 5.
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, 'Reports', 'Reports');
    const card = (id: string) => page.getByTestId(`card-${id}`);
    await card('opened').getByText('4', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await card('opened').textContent()).toBe('Conversations41 closed');
    expect(await card('resolved-by-ai').textContent()).toContain('50%');
    expect(await card('handed-off').textContent()).toContain('2');
    expect(await card('csat').textContent()).toContain('5.0 / 5 (1 rating)');
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'reports');
    await shots.take(page, 'reports');

    // On a phone: the Reports page and the rated conversation fit without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await settled(page);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'))).toBeLessThanOrEqual(0);
    await shots.take(page, 'reports-phone');
    await page.goto(`${platform.gateway}/dashboard/inbox/${refund.id}`);
    await page.getByTestId('thread-rating').waitFor();
    expect(await page.getByTestId('thread-rating').textContent()).toBe('Customer rating: 5/5');
    await settled(page);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'))).toBeLessThanOrEqual(0);
    await shots.take(page, 'rated-conversation-phone');
  }, 240_000);

  /** The owner's own bearer token (the API key names no member). */
  async function ownerToken(): Promise<string> {
    const login = await http<{ access_token: string }>('POST', `${platform.gateway}/auth/login`, { json: { email: owner.email, password: owner.password } });
    expect(login.status).toBe(200);
    return login.body.access_token;
  }
});
