import { pollUntil } from '@parley/testing';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { copyableValue, createApiKey, openPage } from './dashboard/dashboard-pages';
import { apiClient } from './support/api';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// People in the loop (CONTRACT §12), in a real Chromium against the built stack: an owner signs up with email and
// password and stays signed in across a reload; invites a member who joins as `agent` (and may not open API keys);
// a customer asks the bot for a person, the member answers from the inbox as themselves, and gives the conversation back
// to the agent, which answers the next message. The inbox screenshots of docs/screenshots/ are dashboard-inbox-records.e2e-spec's.

const OWNER = { business: 'Corner Bakery', name: 'Olivia Baker', email: 'owner@corner-bakery.example', password: 'flour-and-water-42' };
const MEMBER = { name: 'Sam Rivera', email: 'sam@corner-bakery.example', password: 'sourdough-starter-7' };
const FAQ = { question: 'What are your opening hours?', answer: 'We are open Monday to Saturday, 8am to 6pm.' };
const ASK_FOR_PERSON = 'Can I talk to a real person please?';
const MEMBER_REPLY = 'Hi, Sam here from Corner Bakery. How can I help?';
const NOTE = 'Regular customer: offer the loyalty discount.';

interface SandboxMessage {
  phone_number_id: string;
  to: string;
  type: string;
  text?: { body: string };
}

describe('Dashboard in a real browser: team members, sessions and the inbox', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  /** What the sandbox (playing WhatsApp) delivered to a customer. */
  async function sandboxTexts(customer: string): Promise<string[]> {
    const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
    expect(res.status).toBe(200);
    return res.body.data.filter((m) => m.type === 'text').map((m) => m.text?.body ?? '');
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
  }

  it('signs up with email and password, stays signed in across a reload, invites an agent who may not open API keys, and answers a customer from the inbox', async () => {
    const { page, context } = browser;

    // Sign up: the owner's email and password; the program credentials are shown once, then the owner's session starts.
    await page.goto(`${platform.gateway}/dashboard/sign-up`);
    await page.getByRole('heading', { name: 'Create your Parley account' }).waitFor();
    await page.getByLabel('Business name').fill(OWNER.business);
    await page.getByLabel(/^Your name/).fill(OWNER.name);
    await page.getByLabel('Your email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();

    // The session is the gateway's httpOnly cookie: the page cannot read it, and a reload keeps it.
    const cookies = await context.cookies(platform.gateway);
    expect(cookies.find((c) => c.httpOnly && c.sameSite === 'Strict')).toBeDefined();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
    await page.getByText(`${OWNER.name} (owner)`).waitFor();

    // A program sets up the bot (the number's agent), with an API key made under Settings → Developers.
    const api = apiClient(platform.gateway, await createApiKey(page));
    const agent = await api.PUT('/api/v1/agents/{agent_name}', {
      params: { path: { agent_name: 'support' } },
      body: { name: 'support', instruction: 'You are the assistant of Corner Bakery.', greeting: '', skills: ['faq_responder'], faqs: [FAQ] },
    });
    expect(agent.response.status).toBe(201);
    const channel = (await api.GET('/api/v1/channels')).data!.data[0];
    expect((await api.PATCH('/api/v1/channels/{channel_id}', { params: { path: { channel_id: channel.id } }, body: { agent: 'support' } })).response.status).toBe(200);

    // Invite a member as `agent`: the link is shown once, with a copy button.
    await openPage(page, 'Team', 'Team');
    await page.getByRole('row', { name: new RegExp(OWNER.email) }).waitFor();
    await expectNoSeriousA11yViolations(page, 'team');
    const invite = page.getByRole('form', { name: 'Invite a team member' });
    await invite.getByLabel('Name').fill(MEMBER.name);
    await invite.getByLabel('Email').fill(MEMBER.email);
    await invite.getByLabel('Role').selectOption('agent');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('button', { name: 'Copy Invite link' }).waitFor();
    const inviteUrl = new URL(await copyableValue(page, 'Invite link'));
    expect(inviteUrl.searchParams.get('token')).toBeTruthy();
    await page.getByRole('row', { name: new RegExp(MEMBER.email) }).getByText('invited').waitFor();

    // The member opens the link (signed out first: one browser here), chooses a password and is signed in as `agent`.
    await signOut(page);
    await expectNoSeriousA11yViolations(page, 'sign-in');
    await page.goto(`${platform.gateway}${inviteUrl.pathname}${inviteUrl.search}`);
    await page.getByRole('heading', { name: 'Join your team on Parley' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'accept-invite');
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Join the team' }).click();
    await page.getByText(`${MEMBER.name} (agent)`).waitFor();

    // An `agent` may not manage API keys (nor the team): neither is in the menu, and the page opened by its address says so.
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await page.goto(`${platform.gateway}/dashboard/api-keys`);
    await page.getByText('Your role cannot manage API keys').waitFor();
    const keysAsAgent = await http('GET', `${platform.gateway}/api/v1/api-keys`, { headers: { cookie: (await context.cookies(platform.gateway)).map((c) => `${c.name}=${c.value}`).join('; ') } });
    expect(keysAsAgent.status).toBe(403);

    // Signing in again with email and password works too.
    await signOut(page);
    await signIn(page, MEMBER.email, MEMBER.password);
    await page.getByText(`${MEMBER.name} (agent)`).waitFor();

    // A second tab shares the session (the cookie) and watches the inbox live while the customer writes in the first.
    const inboxTab = await context.newPage();
    await inboxTab.goto(`${platform.gateway}/dashboard/inbox`);
    await inboxTab.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    // The Playground's conversations are apart from customers': this test plays its customer there.
    await inboxTab.getByRole('search', { name: 'Filter conversations' }).getByLabel('From').selectOption('playground');

    await openPage(page, 'Playground', 'Playground');
    await page.getByLabel('Your business number').selectOption({ label: `${channel.phone_number} (${channel.provider}, support)` });
    const customer = ((await page.getByTestId('playground-customer').textContent()) ?? '').trim();
    expect(customer).toMatch(/^\+\d+$/);
    await page.getByRole('textbox', { name: 'Message' }).fill(ASK_FOR_PERSON);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('chat-business').first().waitFor({ timeout: 45_000 });

    // The conversation appears in the inbox, handed off and unread, without a reload.
    const item = inboxTab.getByTestId('inbox-item').filter({ hasText: customer });
    await item.waitFor({ timeout: 30_000 });
    expect(await item.getAttribute('data-source')).toBe('playground');
    await item.getByText('Playground', { exact: true }).waitFor();
    await pollUntil(async () => (await item.getAttribute('data-state')) === 'handed_off' && Number(await item.getAttribute('data-unread')) > 0, {
      timeoutMs: 15_000,
      description: 'the conversation handed off and unread in the inbox',
    });
    await expectNoSeriousA11yViolations(inboxTab, 'inbox list');

    // The member opens it: the customer's words, the bot's handoff line; replies as themselves.
    await item.getByRole('link').click();
    // Named for the contact: the lead's name, else the WhatsApp profile name (the sandbox gives one), else the number.
    const thread = inboxTab.getByRole('article', { name: /^Conversation with / });
    await thread.getByText(customer).first().waitFor();
    await thread.getByText(ASK_FOR_PERSON).waitFor();
    expect(await thread.locator('[data-testid="thread-message"][data-author="agent"]').count()).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(inboxTab, 'inbox thread');
    await thread.getByLabel('Reply to the customer').fill(MEMBER_REPLY);
    await thread.getByRole('button', { name: 'Send reply' }).click();
    await thread.locator('[data-testid="thread-message"][data-author="member"]', { hasText: MEMBER_REPLY }).waitFor();

    // The customer receives it on WhatsApp (the sandbox plays it), and sees it in the Playground.
    await pollUntil(async () => (await sandboxTexts(customer)).includes(MEMBER_REPLY), { timeoutMs: 30_000, description: "the member's reply at the sandbox" });
    await page.getByTestId('chat-business').filter({ hasText: MEMBER_REPLY }).waitFor({ timeout: 30_000 });

    // An internal note stays in the thread, apart from the messages, and never reaches the customer.
    await thread.getByRole('radio', { name: 'Internal note' }).check();
    await thread.getByRole('textbox', { name: /^Note for your team/ }).fill(NOTE);
    await thread.getByRole('button', { name: 'Add note' }).click();
    await thread.getByTestId('thread-note').filter({ hasText: NOTE }).waitFor();
    expect(await sandboxTexts(customer)).not.toContain(NOTE);
    await thread.getByRole('radio', { name: 'Reply' }).check();

    await expectPhoneFits(inboxTab);

    // Given back to the agent, the bot answers the customer's next message.
    await thread.getByRole('button', { name: 'Give back to the agent' }).click();
    await thread.locator('[data-testid="thread-state"][data-state="active"]').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill(FAQ.question);
    await page.getByRole('button', { name: 'Send' }).click();
    await pollUntil(async () => (await sandboxTexts(customer)).some((text) => text.includes(FAQ.answer)), {
      timeoutMs: 45_000,
      description: "the agent's answer at the sandbox",
    });
    await thread.locator('[data-testid="thread-message"][data-author="agent"]', { hasText: FAQ.answer }).waitFor({ timeout: 30_000 });
    await inboxTab.close();
  }, 300_000);

  /** The inbox with a thread open fits a 390 px phone (the screenshots are dashboard-inbox-records.e2e-spec's). */
  async function expectPhoneFits(page: Page): Promise<void> {
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  }
});
