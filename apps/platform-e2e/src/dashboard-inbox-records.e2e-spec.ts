import { pollUntil } from '@parley/testing';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT } from '../../../tools/dev/lib/stack.cjs';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { settled } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// The inbox for a team and editable records (issue 32), in a real Chromium against the built stack: the owner finds a
// customer by a word they wrote, sees their words as the preview and our reply ticked, edits the contact beside the
// thread and the inbox shows the new name, inserts a canned reply with the contact's name and sends it; an SMS customer
// (through the sandbox's Twilio wire) is labelled SMS and an email thread shows its subject with no 24-hour window;
// the contact page edits in place, the pipeline creates and edits a deal with an amount, the contacts list takes a new
// contact live; every page fits a 390 px phone. The inbox and contacts screenshots of docs/screenshots/ are taken here.

const OWNER = { business: 'Fjord Bikes', owner_name: 'Olivia', email: 'olivia@fjord-bikes.example', password: 'cargo-bike-2026' };
const CUSTOMER = '+14155550171';
const ASKED = 'My battery died after two weeks, is that covered by the warranty?';
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
const LONG = 300_000;

interface Conversation {
  id: string;
  customer: string;
  contact_name: string | null;
}

describe('Dashboard in a real browser: the inbox for a team and editable records', () => {
  let platform: Platform;
  let browser: Browser;
  let token: string;
  let ownerId: string;
  const api = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });
  const dashboard = (page: Page, path: string) => page.goto(`${platform.gateway}/dashboard${path}`);

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, {
      json: { name: OWNER.business, email: OWNER.email, password: OWNER.password, owner_name: OWNER.owner_name },
    });
    expect(account.status).toBe(201);
    token = account.body.api_key;
    const team = await api<{ data: { id: string; email: string }[] }>('GET', '/api/v1/team');
    ownerId = team.body.data.find((m) => m.email === OWNER.email)!.id;
    const agent = await api('PUT', '/api/v1/agents/support', {
      name: 'support',
      instruction: 'You are the assistant of Fjord Bikes, a bike shop.',
      greeting: 'Hei from Fjord Bikes!',
      skills: ['faq_responder'],
      faqs: [{ question: 'What are your opening hours?', answer: 'We are open Monday to Saturday, 9 to 17.' }],
    });
    expect([200, 201]).toContain(agent.status);

    const { page } = browser;
    await dashboard(page, '/sign-in');
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  const conversationsFor = async (query: string) => (await api<{ data: Conversation[] }>('GET', `/api/v1/conversations?${query}`)).body.data;

  /** Whether the page scrolls sideways at 390 px (it must not: wide things scroll in their own box). */
  async function expectFitsPhone(page: Page, name: string): Promise<void> {
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect({ page: name, overflow }).toEqual({ page: name, overflow: 0 });
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-desktop.png`) });
    await expectFitsPhone(page, name);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-mobile.png`) });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it(
    'finds a word the customer wrote, previews their words, ticks our reply, edits the contact beside the thread (the inbox shows the new name), and sends a canned reply with the contact’s name',
    async () => {
      const whatsapp = (await api<{ data: { channel: string; provider: string; phone_number: string }[] }>('GET', '/api/v1/channels')).body.data.find((c) => c.provider === 'sandbox')!;
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: CUSTOMER, to: whatsapp.phone_number, text: ASKED } })).status).toBe(200);
      // Another customer, about something else: the search must leave them out.
      expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: '+14155550172', to: whatsapp.phone_number, text: 'Do you sell helmets?' } })).status).toBe(200);
      await pollUntil(async () => (await conversationsFor('q=helmets')).length === 1 && (await conversationsFor('q=battery')).length === 1, { timeoutMs: 45_000, description: 'both conversations' });
      const company = await api<{ id: string }>('POST', '/api/v1/companies', { name: 'Nordmann Transport AS', domain: 'nordmann-transport.example' });
      expect(company.status).toBe(201);

      const { page } = browser;
      await dashboard(page, '/inbox');
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      await settled(page);
      const filters = page.getByRole('search', { name: 'Filter conversations' });
      await filters.getByLabel('Search messages').fill('battery');
      await page.getByTestId('search-summary').getByText('1 conversation with “battery”').waitFor();
      const item = page.getByTestId('inbox-item');
      expect(await item.count()).toBe(1);
      expect(await item.getAttribute('data-source')).toBe('customer');
      // The preview is the customer's question, not the agent's answer to it.
      expect(await item.getByTestId('inbox-preview').textContent()).toBe(ASKED);
      await filters.getByLabel('Search messages').fill('warranty covered');
      await page.getByTestId('search-summary').getByText('1 conversation with “warranty covered”').waitFor();
      await filters.getByLabel('Search messages').fill('saddle');
      await page.getByText('No conversation has “saddle” in its messages, name or number.').waitFor();
      await filters.getByLabel('Search messages').fill('battery');
      await page.getByTestId('search-summary').waitFor();
      await expectNoSeriousA11yViolations(page, 'inbox search');

      await item.getByRole('link').click();
      const thread = page.getByRole('article', { name: /^Conversation with / });
      await thread.getByText(ASKED).waitFor();
      // The agent's answer went out on WhatsApp: its ticks move on to delivered or read (the sandbox reports both).
      const agentTicks = thread.locator('[data-testid="thread-message"][data-author="agent"] [data-testid="delivery-status"]');
      await pollUntil(async () => ['delivered', 'read'].includes((await agentTicks.first().getAttribute('data-status')) ?? ''), { timeoutMs: 30_000, description: 'the reply delivered' });
      expect(await thread.locator('[data-testid="thread-message"][data-author="customer"] [data-testid="delivery-status"]').count()).toBe(0);
      await thread.getByTestId('reply-window').waitFor();

      // The contact beside the thread, edited in place.
      const panel = page.getByRole('complementary', { name: 'Contact' });
      await panel.getByLabel('Name', { exact: true }).fill('Kari Nordmann');
      await panel.getByLabel('Email', { exact: true }).fill('kari@nordmann.example');
      await panel.getByLabel('Tags', { exact: true }).fill('vip, e-bike');
      await panel.getByLabel('Company', { exact: true }).selectOption({ label: 'Nordmann Transport AS' });
      await panel.getByRole('button', { name: 'Add attribute' }).click();
      await panel.getByLabel('Attribute 1 name').fill('bike');
      await panel.getByLabel('Attribute 1 value').fill('cargo');
      await panel.getByRole('button', { name: 'Save contact' }).click();
      await panel.getByRole('status').getByText('Saved.').waitFor();
      const contacts = await api<{ data: { id: string; name: string; email: string; tags: string[]; attributes: object; company_id: string }[] }>('GET', `/api/v1/contacts?q=5550171`);
      expect(contacts.body.data[0]).toMatchObject({ name: 'Kari Nordmann', email: 'kari@nordmann.example', tags: ['vip', 'e-bike'], attributes: { bike: 'cargo' }, company_id: company.body.id });
      // The inbox shows the new name without a reload: in the list and on the thread.
      await item.getByText('Kari Nordmann', { exact: true }).waitFor({ timeout: 30_000 });
      await thread.getByRole('heading', { name: 'Kari Nordmann' }).waitFor({ timeout: 30_000 });
      expect((await conversationsFor('q=nordmann')).map((c) => c.customer)).toEqual([CUSTOMER]);
      await expectNoSeriousA11yViolations(page, 'inbox thread with its contact');

      // A canned reply, added from the composer, found by typing "/" and its shortcut, filled in with the contact and me.
      await thread.getByRole('button', { name: 'Canned replies' }).click();
      const picker = thread.getByRole('group', { name: 'Canned replies' });
      await picker.getByText('No canned reply yet: add the first below.').waitFor();
      await picker.getByText('Add a canned reply').click();
      await picker.getByLabel('Shortcut').fill('battery');
      await picker.getByLabel('Text', { exact: true }).fill('Hi {{contact.name}}, {{agent.name}} here from Fjord Bikes. Bring the battery in and we will test it.');
      await picker.getByRole('button', { name: 'Save canned reply' }).click();
      await picker.getByTestId('canned-reply').filter({ hasText: '/battery' }).waitFor();
      await expectNoSeriousA11yViolations(page, 'canned replies');
      await picker.getByRole('button', { name: 'Close' }).click();
      const box = thread.getByLabel('Reply to the customer');
      await box.fill('/batt');
      await thread.getByTestId('canned-reply').filter({ hasText: '/battery' }).click();
      const filled = 'Hi Kari Nordmann, Olivia here from Fjord Bikes. Bring the battery in and we will test it.';
      expect(await box.inputValue()).toBe(filled);
      await thread.getByRole('button', { name: 'Send reply' }).click();
      await thread.locator('[data-testid="thread-message"][data-author="member"]', { hasText: filled }).waitFor();
      await pollUntil(
        async () => (await http<{ data: { text?: { body: string } }[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(CUSTOMER)}`)).body.data.some((m) => m.text?.body === filled),
        { timeoutMs: 30_000, description: 'the canned reply at the customer' },
      );
      const replies = await api<{ data: { shortcut: string; text: string }[] }>('GET', '/api/v1/canned-replies?q=battery');
      expect(replies.body.data).toEqual([expect.objectContaining({ shortcut: 'battery', text: expect.stringContaining('{{contact.name}}') })]);

      await settled(page);
      await screenshots(page, 'inbox');
    },
    LONG,
  );

  it(
    'labels an SMS customer (through the Twilio wire) SMS, and shows an email thread with its subject and no 24-hour window',
    async () => {
      const smsNumber = '+14155550180';
      const texter = '+14155550181';
      expect((await api('POST', '/api/v1/channels/sms', { provider: 'sandbox', phone_number: smsNumber })).status).toBe(201);
      const sms = await http<{ webhook_status: number }>('POST', `${platform.sandbox}/_sandbox/sms/inbound`, { json: { from: texter, to: smsNumber, body: 'Do you rent e-bikes by the day?' } });
      expect(sms.body.webhook_status).toBe(200);
      const address = 'hello@fjord-bikes.test';
      const mailer = 'ola@example.com';
      const subject = 'Brake pads for a cargo bike';
      expect((await api('POST', '/api/v1/channels/email', { provider: 'sandbox', address })).status).toBe(201);
      const mail = await http<{ accepted: boolean }>('POST', `${platform.sandbox}/_sandbox/email/inbound`, { json: { from: mailer, to: address, subject, text: 'Do you have brake pads for a Load 75?' } });
      expect(mail.body).toMatchObject({ accepted: true });
      await pollUntil(async () => (await conversationsFor('channel=sms')).length === 1 && (await conversationsFor('channel=email')).length === 1, { timeoutMs: 45_000, description: 'the SMS and email conversations' });

      const { page } = browser;
      await dashboard(page, '/inbox');
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      const filters = page.getByRole('search', { name: 'Filter conversations' });
      await filters.getByLabel('Channel').selectOption('sms');
      const smsItem = page.getByTestId('inbox-item').filter({ hasText: texter });
      await smsItem.waitFor({ timeout: 30_000 });
      await pollUntil(async () => (await page.getByTestId('inbox-item').count()) === 1, { timeoutMs: 15_000, description: 'only the SMS conversation listed' });
      expect(await smsItem.getByTestId('channel-badge').textContent()).toBe('Channel: SMS');
      await smsItem.getByRole('link').click();
      const thread = page.getByRole('article', { name: /^Conversation with / });
      expect(await thread.getByTestId('channel-badge').textContent()).toBe('Channel: SMS');
      await thread.getByText('Do you rent e-bikes by the day?').waitFor();
      // The 24-hour window is WhatsApp's: not on SMS.
      expect(await thread.getByTestId('reply-window').count()).toBe(0);
      await settled(page);
      await expectNoSeriousA11yViolations(page, 'inbox thread (SMS)');

      await filters.getByLabel('Channel').selectOption('email');
      const mailItem = page.getByTestId('inbox-item').filter({ hasText: mailer });
      await mailItem.waitFor({ timeout: 30_000 });
      expect(await mailItem.getByTestId('channel-badge').textContent()).toBe('Channel: Email');
      await mailItem.getByRole('link').click();
      const mailThread = page.getByRole('article', { name: /^Conversation with / });
      await mailThread.getByText('Do you have brake pads for a Load 75?').waitFor();
      expect(((await mailThread.getByTestId('thread-subject').textContent()) ?? '').trim()).toBe(`Subject: ${subject}`);
      expect(await mailThread.getByTestId('reply-window').count()).toBe(0);
      expect(await mailThread.getByText(/24-hour window/).count()).toBe(0);
      expect(await mailThread.getByLabel('Reply to the customer').isEnabled()).toBe(true);
      await settled(page);
      await expectNoSeriousA11yViolations(page, 'inbox thread (email)');
      await expectFitsPhone(page, 'inbox thread (email)');
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    LONG,
  );

  it(
    'edits a contact on its page, takes a new contact into the list live, and creates a deal with an amount, owner and close date on the pipeline, then edits it',
    async () => {
      const { page } = browser;
      await dashboard(page, '/contacts');
      await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
      await settled(page);
      await page.getByTestId('contact-row').filter({ hasText: 'Kari Nordmann' }).waitFor();
      // A contact added elsewhere (a colleague, an import, a captured lead) appears without a reload.
      expect((await api('POST', '/api/v1/contacts', { phone: '+14155550190', name: 'Live Larsen', tags: ['walk-in'] })).status).toBe(201);
      await page.getByTestId('contact-row').filter({ hasText: 'Live Larsen' }).waitFor({ timeout: 15_000 });
      await expectNoSeriousA11yViolations(page, 'contacts');
      await screenshots(page, 'contacts');

      await page.getByTestId('contact-row').filter({ hasText: 'Kari Nordmann' }).getByRole('link').click();
      await page.getByRole('heading', { name: 'Kari Nordmann' }).waitFor();
      const form = page.getByRole('form', { name: 'Contact details' });
      expect(await form.getByLabel('Tags', { exact: true }).inputValue()).toBe('vip, e-bike');
      await form.getByLabel('Email', { exact: true }).fill('not an address');
      await form.getByRole('button', { name: 'Save contact' }).click();
      await form.getByRole('alert').waitFor();
      await form.getByText(/^The email address must be an email address/).first().waitFor();
      await form.getByLabel('Email', { exact: true }).fill('kari.nordmann@nordmann.example');
      await form.getByLabel('Tags', { exact: true }).fill('vip, e-bike, repeat');
      await form.getByRole('button', { name: 'Save contact' }).click();
      await form.getByRole('status').getByText('Saved.').waitFor();
      const saved = await api<{ data: { email: string; tags: string[] }[] }>('GET', '/api/v1/contacts?q=5550171');
      expect(saved.body.data[0]).toMatchObject({ email: 'kari.nordmann@nordmann.example', tags: ['vip', 'e-bike', 'repeat'] });
      await settled(page);
      await expectNoSeriousA11yViolations(page, 'contact');
      await expectFitsPhone(page, 'contact');
      await page.setViewportSize({ width: 1280, height: 900 });

      await dashboard(page, '/pipeline');
      await page.getByRole('heading', { level: 1, name: 'Pipeline' }).waitFor();
      await settled(page);
      await page.getByRole('button', { name: 'New deal' }).click();
      const dealForm = page.getByRole('form', { name: 'New deal' });
      await dealForm.getByLabel('Title').fill('Cargo bike for Kari');
      await dealForm.getByLabel('Find a contact').fill('Nordmann');
      await pollUntil(async () => (await dealForm.getByLabel('Contact', { exact: true }).locator('option').count()) === 2, { timeoutMs: 15_000, description: 'Kari found' });
      await dealForm.getByLabel('Contact', { exact: true }).selectOption({ index: 1 });
      await dealForm.getByLabel('Amount').fill('4999.50');
      await dealForm.getByLabel('Currency').fill('NOK');
      expect(await dealForm.getByLabel('Owner').inputValue()).toBe(ownerId);
      await dealForm.getByLabel('Expected close').fill('2026-03-31');
      await expectNoSeriousA11yViolations(page, 'new deal');
      await dealForm.getByRole('button', { name: 'Create deal' }).click();
      const card = page.getByRole('region', { name: /^new/ }).getByTestId('deal-card').filter({ hasText: 'Cargo bike for Kari' });
      await card.waitFor();
      expect(await card.getByTestId('deal-value').textContent()).toContain('4,999.50');
      await card.getByText('Owner: you').waitFor();
      await card.getByText(/^Expected to close .*2026$/).waitFor();
      // The stage select's name is for screen readers only: nothing "Stage of …" printed on the card.
      expect(await card.getByLabel('Stage of Cargo bike for Kari').count()).toBe(1);
      const label = await card.locator('label').filter({ hasText: 'Stage of Cargo bike for Kari' }).boundingBox();
      expect(label && label.width <= 1 && label.height <= 1).toBe(true);
      const deals = await api<{ data: { id: string; title: string; value: object; owner: string; expected_close_date: string; contact_id: string }[] }>('GET', '/api/v1/deals');
      const deal = deals.body.data.find((d) => d.title === 'Cargo bike for Kari')!;
      expect(deal).toMatchObject({ value: { amount: '4999.50', currency: 'NOK' }, owner: ownerId, expected_close_date: '2026-03-31' });

      await card.getByRole('button', { name: 'Edit Cargo bike for Kari' }).click();
      const editForm = page.getByRole('form', { name: 'Edit deal Cargo bike for Kari' });
      await editForm.getByLabel('Amount').fill('5200');
      await editForm.getByLabel('Stage').selectOption('proposal');
      await editForm.getByRole('button', { name: 'Save deal' }).click();
      const moved = page.getByRole('region', { name: /^proposal/ }).getByTestId('deal-card').filter({ hasText: 'Cargo bike for Kari' });
      await moved.getByTestId('deal-value').getByText(/5,200\.00/).waitFor();
      expect((await api<{ value: object; stage: string }>('GET', `/api/v1/deals/${deal.id}`)).body).toMatchObject({ value: { amount: '5200', currency: 'NOK' }, stage: 'proposal' });
      await settled(page);
      await expectNoSeriousA11yViolations(page, 'pipeline');
      await expectFitsPhone(page, 'pipeline');
      await page.setViewportSize({ width: 1280, height: 900 });

      await dashboard(page, '/companies');
      await page.getByRole('heading', { level: 1, name: 'Companies' }).waitFor();
      await settled(page);
      await expectFitsPhone(page, 'companies');
      await page.setViewportSize({ width: 1280, height: 900 });
    },
    LONG,
  );
});
