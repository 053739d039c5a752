import { pollUntil } from '@parley/testing';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT } from '../../../tools/dev/lib/stack.cjs';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { copyableValue, openPage, settled } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// The dashboard's shell (issue 32) in a real Chromium against the built stack: a business owner signs up and reaches a
// first answer in the Playground without meeting a credential; connects SMS, email and voice from the Channels page and
// sees each under its kind; a team member with the role `agent` sees a menu without what the role cannot do, and no
// request of theirs is refused; every page fits a 390 px phone, whose menu opens from the Menu button. The navigation
// and channels screenshots of docs/screenshots/ are taken here.

const OWNER = { business: 'Fjord Bikes', name: 'Ingrid Fjord', email: 'ingrid@fjord-bikes.example', password: 'spokes-and-chains-26' };
const MEMBER = { name: 'Ola Berg', email: 'ola@fjord-bikes.example', password: 'inner-tube-patch-9' };
const AGENT = { display: 'Fjord Bikes assistant', id: 'fjord-bikes-assistant', greeting: 'Hei from Fjord Bikes!' };
const QUESTION = 'Do you repair electric bikes?';
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** A Norwegian mobile number no other test uses (the API checks numbers against real numbering plans). */
const norwegianMobile = () => `+479${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** What the browser's console reports as an error (a failed request's 401, 403 or 404 included) while a page is used. */
function consoleErrors(page: Page): { errors: string[]; stop(): void } {
  const errors: string[] = [];
  const onConsole = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error') errors.push(message.text());
  };
  const onResponse = (response: { status(): number; url(): string; request(): { method(): string } }) => {
    if (response.status() >= 400) errors.push(`${response.request().method()} ${response.url()} → ${response.status()}`);
  };
  page.on('console', onConsole);
  page.on('response', onResponse);
  return {
    errors,
    stop() {
      page.off('console', onConsole);
      page.off('response', onResponse);
    },
  };
}

/** Whether the page scrolls sideways (a string expression: this project compiles without the DOM types). */
const pageWidth = async (page: Page) => Number(await page.evaluate('document.documentElement.scrollWidth'));

/** The elements that reach past the screen's right edge, to name in a failure. */
const widest = async (page: Page) =>
  String(
    await page.evaluate(`[...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 4)
      .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' ' + Math.round(e.getBoundingClientRect().width) + 'px')
      .join(', ')`),
  );

describe('Dashboard in a real browser: the navigation, the owner’s onboarding, channels and roles', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser(DESKTOP);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  it('takes an owner from sign-up to a first answer in the Playground without touching a credential', async () => {
    const { page } = browser;
    const watched = consoleErrors(page);

    // Signed out: no request that could only be refused (no 401 on /api/v1/team/me).
    await page.goto(`${platform.gateway}/dashboard/sign-up`);
    await page.getByRole('heading', { level: 1, name: 'Create your Parley account' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'sign-up');
    await page.getByLabel('Business name').fill(OWNER.business);
    await page.getByLabel(/^Your name/).fill(OWNER.name);
    await page.getByLabel('Your email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    // Sign-up ends in the product: the checklist, no credentials screen.
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
    await page.getByText(`${OWNER.name} (owner)`).waitFor();
    await settled(page);
    const step = (title: string) => page.locator('.checklist li', { hasText: title });
    expect(await page.locator('.checklist li strong').allTextContents()).toEqual([
      'Name your business',
      'Connect a number (WhatsApp, SMS or email)',
      'Create your AI agent',
      'Ask it a first question in the Playground',
      'Invite your team',
    ]);
    expect(await step('Connect a number').getAttribute('data-done')).toBe('true'); // the sandbox number of every new account
    expect(await step('Create your AI agent').getAttribute('data-done')).toBe('false');
    expect(await page.getByRole('heading', { name: 'Your account is ready' }).count()).toBe(0);
    expect(await page.getByText(/client secret/i).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'get started');

    // An AI agent in plain words: its display name, the API identifier derived from it, a clear confirmation.
    await step('Create your AI agent').getByRole('link', { name: 'Create an AI agent' }).click();
    await page.getByRole('heading', { level: 1, name: 'AI agents' }).waitFor();
    await page.getByRole('button', { name: 'New AI agent' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(AGENT.display);
    expect(await page.getByTestId('agent-identifier').textContent()).toBe(AGENT.id);
    await page.getByLabel(/^What it should do/).fill('You are the assistant of Fjord Bikes, a bike shop in Bergen. We sell and repair bikes, electric ones too.');
    await page.getByLabel(/^Greeting/).fill(AGENT.greeting);
    await page.getByRole('button', { name: 'Add a FAQ' }).click();
    await page.getByLabel('Question 1').fill('Do you repair electric bikes?');
    await page.getByLabel('Answer 1').fill('Yes: we repair every electric bike, usually within two days.');
    // The booking hours' time zone defaults to the browser's own.
    await page.getByLabel('Book appointments in your opening hours').check();
    const browserZone = String(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone'));
    expect(await page.getByLabel('Time zone').inputValue()).toBe(browserZone);
    await page.getByLabel('Book appointments in your opening hours').uncheck();
    await expectNoSeriousA11yViolations(page, 'new AI agent');
    await page.getByRole('button', { name: 'Create AI agent' }).click();
    await page.getByRole('status').filter({ hasText: `Created ${AGENT.id}` }).waitFor();
    await page.getByRole('heading', { name: `Edit ${AGENT.id} (version 1)` }).waitFor();

    // The first question in the Playground, answered by the new AI agent on the sandbox number.
    await openPage(page, 'Playground', 'Playground');
    await page.getByRole('textbox', { name: 'Message' }).fill(QUESTION);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('chat-customer').filter({ hasText: QUESTION }).waitFor();
    const reply = page.getByTestId('chat-business').first();
    await reply.waitFor({ timeout: 45_000 });
    expect(((await reply.textContent()) ?? '').trim().startsWith(AGENT.greeting)).toBe(true);

    // Get started ticks the Playground step; only inviting the team is left.
    await pollUntil(
      async () => {
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
        await openPage(page, 'Get started', 'Get started');
        await settled(page);
        return (await step('Ask it a first question').getAttribute('data-done')) === 'true';
      },
      { timeoutMs: 30_000, intervalMs: 500, description: 'the Playground step ticked' },
    );
    await page.getByText('4 of 5').waitFor();
    expect(await step('Invite your team').getAttribute('data-done')).toBe('false');

    // The navigation at 1280 px: every entry visible, none cut off or scrolled away.
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    for (const link of await nav.getByRole('link').all()) {
      const box = await link.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= DESKTOP.width && box.y >= 0 && box.y + box.height <= DESKTOP.height).toBe(true);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'navigation-desktop.png') });

    watched.stop();
    expect(watched.errors).toEqual([]);
  }, 300_000);

  it('connects an SMS number, an email address and a voice number from the Channels page, each listed under its kind', async () => {
    const { page } = browser;
    await openPage(page, 'Channels', 'Channels');
    await settled(page);
    const section = (kind: string) => page.getByTestId(`channels-${kind}`);
    // every account starts with its sandbox WhatsApp number, and nothing else
    expect(await section('whatsapp').locator('tbody tr').count()).toBe(1);
    for (const kind of ['sms', 'email', 'voice']) await section(kind).getByText(/connected yet/).waitFor();

    // SMS: the sandbox needs only the number; Twilio asks for its account SID and auth token.
    const sms = norwegianMobile();
    await section('sms').getByRole('button', { name: 'Connect an SMS number' }).click();
    const smsForm = page.getByRole('form', { name: 'Connect SMS number' });
    await smsForm.getByRole('radio', { name: /Twilio/ }).check();
    await smsForm.getByLabel('Twilio account SID').waitFor();
    await smsForm.getByRole('radio', { name: /Sandbox/ }).check();
    expect(await smsForm.getByLabel('Twilio account SID').count()).toBe(0);
    await smsForm.getByLabel(/^SMS phone number/).fill(`${sms.slice(0, 3)} ${sms.slice(3, 6)} ${sms.slice(6)}`);
    await expectNoSeriousA11yViolations(page, 'channels: connect SMS');
    await smsForm.getByRole('button', { name: 'Connect SMS number' }).click();
    await smsForm.getByRole('status').filter({ hasText: `Connected ${sms} for SMS.` }).waitFor();
    await section('sms').getByTestId(`channel-${sms}`).waitFor();

    // Email: an address; an SMTP server's URL only for one's own server.
    const address = `shop-${Date.now()}@fjord-bikes.example`;
    await section('email').getByRole('button', { name: 'Connect an email address' }).click();
    const emailForm = page.getByRole('form', { name: 'Connect email address' });
    await emailForm.getByLabel('Email address customers write to').fill(address);
    await emailForm.getByRole('button', { name: 'Connect email address' }).click();
    await emailForm.getByRole('status').filter({ hasText: `Connected ${address} for email.` }).waitFor();
    await section('email').getByTestId(`channel-${address}`).waitFor();

    // Voice: a number, and the person a caller asking for one is put through to.
    const voice = norwegianMobile();
    await section('voice').getByRole('button', { name: 'Connect a voice number' }).click();
    const voiceForm = page.getByRole('form', { name: 'Connect voice number' });
    await voiceForm.getByLabel(/^Voice phone number/).fill(voice);
    await voiceForm.getByLabel(/^Forward to a person/).fill(norwegianMobile());
    await voiceForm.getByRole('button', { name: 'Connect voice number' }).click();
    await voiceForm.getByRole('status').filter({ hasText: `Connected ${voice} for voice calls.` }).waitFor();
    await section('voice').getByTestId(`channel-${voice}`).waitFor();

    // Each under its own kind, never under WhatsApp.
    expect(await section('whatsapp').locator('tbody tr').count()).toBe(1);
    for (const [kind, name] of [
      ['sms', sms],
      ['email', address],
      ['voice', voice],
    ]) {
      expect(await section(kind).locator('tbody tr').count()).toBe(1);
      expect(await section('whatsapp').getByTestId(`channel-${name}`).count()).toBe(0);
    }
    const listed = await http<{ data: { channel: string; phone_number: string; address?: string }[] }>('GET', `${platform.gateway}/api/v1/channels`, {
      headers: { cookie: await cookieHeader(page) },
    });
    expect(listed.body.data.map((c) => [c.channel, c.address ?? c.phone_number]).sort()).toEqual(
      expect.arrayContaining([
        ['email', address],
        ['sms', sms],
        ['voice', voice],
      ]),
    );

    // Each can be tried from here: a text to the owner's own phone (followed live to delivered) or address.
    const ownPhone = norwegianMobile();
    await section('sms').getByRole('button', { name: `Test ${sms}` }).click();
    const smsTest = page.getByRole('form', { name: `Test ${sms}` });
    await smsTest.getByLabel('Send a test to this phone number').fill(ownPhone);
    await smsTest.getByRole('button', { name: 'Send test' }).click();
    await smsTest.getByRole('status').filter({ hasText: `Test to ${ownPhone}: delivered` }).waitFor();
    const texts = await http<{ data: { from: string; body: string }[] }>('GET', `${platform.sandbox}/_sandbox/sms/messages?to=${encodeURIComponent(ownPhone)}`);
    expect(texts.body.data).toEqual([expect.objectContaining({ from: sms, body: expect.stringContaining('test message') })]);
    await expectNoSeriousA11yViolations(page, 'channels: test SMS');
    await smsTest.getByRole('button', { name: 'Close' }).click();

    const ownAddress = `ingrid-${Date.now()}@example.com`;
    await section('email').getByRole('button', { name: `Test ${address}` }).click();
    const emailTest = page.getByRole('form', { name: `Test ${address}` });
    await emailTest.getByLabel('Send a test to this address').fill(ownAddress);
    await emailTest.getByRole('button', { name: 'Send test' }).click();
    await emailTest.getByRole('status').filter({ hasText: `Test to ${ownAddress}:` }).waitFor();
    const mails = await pollUntil(
      async () => {
        const res = await http<{ data: { from: string | null; subject: string | null }[] }>('GET', `${platform.sandbox}/_sandbox/email/messages?to=${encodeURIComponent(ownAddress)}`);
        return res.body.data.length > 0 && res.body.data;
      },
      { timeoutMs: 20_000, description: 'the test mail in the sandbox SMTP sink' },
    );
    expect(mails).toEqual([expect.objectContaining({ from: expect.stringContaining(address), subject: 'Test message' })]);
    expect(await emailTest.getByRole('status').textContent()).not.toContain('failed');
    await emailTest.getByRole('button', { name: 'Close' }).click();

    await section('voice').getByRole('button', { name: `Test ${voice}` }).click();
    await page.getByRole('region', { name: `Test ${voice}` }).getByText(`Call ${voice} from any phone`).waitFor();
    await page.getByRole('region', { name: `Test ${voice}` }).getByRole('button', { name: 'Close' }).click();

    await expectNoSeriousA11yViolations(page, 'channels');
    await page.screenshot({ path: join(SCREENSHOTS, 'channels-desktop.png'), fullPage: true });
    await page.setViewportSize(PHONE);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(SCREENSHOTS, 'channels-mobile.png'), fullPage: true });
    // a channel's test form fits the phone too
    await section('sms').getByRole('button', { name: `Test ${sms}` }).click();
    await page.getByRole('form', { name: `Test ${sms}` }).getByLabel('Send a test to this phone number').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('form', { name: `Test ${sms}` }).getByRole('button', { name: 'Close' }).click();
    await page.setViewportSize(DESKTOP);

    // Disconnected after a confirmation: gone from its list.
    page.once('dialog', (dialog) => void dialog.accept());
    await section('voice').getByRole('button', { name: `Disconnect ${voice}` }).click();
    await section('voice').getByText('No voice numbers connected yet.').waitFor();
  }, 180_000);

  it('fits every page on a 390 px phone, with the menu behind the Menu button', async () => {
    const { page } = browser;
    await page.setViewportSize(PHONE);
    try {
      await openPage(page, 'Get started', 'Get started');
      const nav = page.getByRole('navigation', { name: 'Dashboard' });
      const menu = page.getByRole('button', { name: 'Menu' });
      expect(await nav.isVisible()).toBe(false);
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      const labels = await nav.getByRole('link').allTextContents();
      expect(labels).toEqual(['Get started', 'Inbox', 'Contacts', 'Companies', 'Pipeline', 'Campaigns', 'Templates', 'AI agents', 'Playground', 'Channels', 'Reports', 'Usage', 'Team', 'Teams', 'Billing', 'Webhooks', 'API keys', 'Messages', 'Conversations']);
      await settled(page);
      await page.screenshot({ path: join(SCREENSHOTS, 'navigation-mobile.png') });
      await expectNoSeriousA11yViolations(page, 'menu open on a phone');
      await page.keyboard.press('Escape');
      expect(await nav.isVisible()).toBe(false);

      const tooWide: string[] = [];
      for (const label of labels) {
        await openPage(page, label, /./);
        await settled(page);
        expect(await nav.isVisible()).toBe(false); // the menu closes once a page is chosen
        const width = await pageWidth(page);
        if (width > PHONE.width) tooWide.push(`${label}: ${width} px (${await widest(page)})`);
      }
      expect(tooWide).toEqual([]);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }, 240_000);

  it('shows a team member with the role agent only what the role can do, and refuses nothing they are shown', async () => {
    const { page } = browser;
    await openPage(page, 'Team', 'Team');
    const invite = page.getByRole('form', { name: 'Invite a team member' });
    await invite.getByLabel('Name').fill(MEMBER.name);
    await invite.getByLabel('Email').fill(MEMBER.email);
    await invite.getByLabel('Role').selectOption('agent');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('button', { name: 'Copy Invite link' }).waitFor();
    const inviteUrl = new URL(await copyableValue(page, 'Invite link'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    // the gateway's answer to the sign-out clears the cookies (a page left before it came keeps a dead session's)
    await pollUntil(async () => !(await cookieHeader(page)).includes('parley_csrf='), { timeoutMs: 10_000, description: 'the session cookies cleared' });

    const watched = consoleErrors(page);
    await page.goto(`${platform.gateway}${inviteUrl.pathname}${inviteUrl.search}`);
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Join the team' }).click();
    await page.getByText(`${MEMBER.name} (agent)`).waitFor();

    // The menu: the conversations, the contacts and the Playground; no Campaigns, Channels, Billing, Developers or Team.
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Get started', 'Inbox', 'Contacts', 'Companies', 'Pipeline', 'Playground', 'Reports']);
    expect(await nav.getByText('Developers').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'the agent member’s menu');

    // Each page they are shown opens without a refused request (no 403 on Get started).
    for (const label of ['Get started', 'Inbox', 'Contacts', 'Companies', 'Pipeline', 'Playground', 'Reports']) {
      await openPage(page, label, /./);
      await settled(page);
    }
    // The contacts, without the export their role does not include.
    await openPage(page, 'Contacts', 'Contacts');
    await page.getByRole('button', { name: 'Search' }).waitFor();
    expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
    const getStarted = page.locator('.checklist li', { hasText: 'Connect a number' });
    await openPage(page, 'Get started', 'Get started');
    await settled(page);
    expect(await getStarted.getByRole('link').count()).toBe(0);
    await getStarted.getByText('An owner or an admin of your team does this.').waitFor();
    watched.stop();
    expect(watched.errors).toEqual([]);

    // A page opened by its address says what the role cannot do, and the API refuses it too.
    for (const [path, says] of [
      ['/billing', 'Your role cannot see or manage billing'],
      ['/campaigns', 'Your role cannot see or run campaigns'],
      ['/channels', 'Your role cannot connect or disconnect channels'],
    ]) {
      await page.goto(`${platform.gateway}/dashboard${path}`);
      await page.getByText(says).waitFor();
    }
    // An address that is no page says so, with the way back.
    await page.goto(`${platform.gateway}/dashboard/no-such-page`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to the start' }).click();
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();

    for (const path of ['/api/v1/campaigns', '/api/v1/billing/wallet', '/api/v1/contacts/export']) {
      const refused = await http<{ detail: string }>('GET', `${platform.gateway}${path}`, { headers: { cookie: await cookieHeader(page) } });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('"agent"');
    }
  }, 180_000);

  async function cookieHeader(page: Page): Promise<string> {
    return (await page.context().cookies(platform.gateway)).map((c) => `${c.name}=${c.value}`).join('; ');
  }
});
