import { pollUntil } from '@parley/testing';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { openPage, settled, signInWithPassword } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';

// Contacts, a contact's timeline and the pipeline in a real Chromium against the built stack (CONTRACT §14, issue 21):
// the owner imports a CSV on the Contacts page (its progress and refused row shown), a customer writes on WhatsApp,
// the owner finds their contact by search, sees the message on its timeline, adds a
// note, and moves the customer's deal to `won` on the Pipeline board with the keyboard path (the card's stage select).
// Then an SMS customer writes in through the Playground: the inbox labels that conversation SMS and filters by channel.

const CUSTOMER = '+14155550142';
const WORDS = 'a quote for forty blue tiles';

describe('Dashboard in a real browser: contacts, a timeline and the pipeline', () => {
  let platform: Platform;
  let browser: Browser;
  let token: string;
  const owner = { email: 'owner@porto-tiles.example', password: 'azulejo-green-2026' };
  const api = <T = unknown>(method: string, path: string, json?: unknown) => http<T>(method, `${platform.gateway}${path}`, { token, json });

  beforeAll(async () => {
    platform = await sharedPlatform();
    browser = await launchBrowser();
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Porto Tiles', ...owner } });
    expect(account.status).toBe(201);
    token = account.body.api_key;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  it("imports a CSV, finds a customer's contact, shows their message on its timeline, takes a note, and moves their deal to won", async () => {
    const channels = await api<{ data: { provider: string; phone_number: string }[] }>('GET', '/api/v1/channels');
    const channel = channels.body.data.find((c) => c.provider === 'sandbox')!;
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: CUSTOMER, to: channel.phone_number, text: `Hello, I would like ${WORDS}` } })).status).toBe(200);
    const contact = await pollUntil(async () => (await api<{ data: { id: string }[] }>('GET', '/api/v1/contacts?q=5550142')).body.data[0], { timeoutMs: 45_000, description: 'the contact' });
    const deal = await api<{ id: string; stage: string }>('POST', '/api/v1/deals', { title: 'Forty blue tiles', contact_id: contact.id, value: { amount: '480.00', currency: 'EUR' } });
    expect(deal.status).toBe(201);
    expect(deal.body.stage).toBe('new');

    const { page } = browser;
    await signInWithPassword(page, platform.gateway, owner);

    await openPage(page, 'Contacts', 'Contacts');
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'contacts');
    // a CSV through the page: its progress, the refused row by number, the imported contact found by name
    const importForm = page.getByRole('form', { name: 'Import contacts' });
    await importForm.getByLabel('CSV file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from('phone,name,tags\n+14155550143,Rui Costa,vip\n555-0144,Bad Row,\n') });
    await importForm.getByRole('button', { name: 'Import' }).click();
    const progress = importForm.getByRole('status', { name: 'Import progress' });
    await progress.getByText('Imported: 1 created, 0 updated, 1 refused.').waitFor({ timeout: 30_000 });
    await progress.getByText(/^Row 2: .*E\.164/).waitFor();
    const search = page.getByRole('search', { name: 'Find contacts' });
    // the owner may export them (an `agent` member sees no such link: dashboard-shell.e2e-spec)
    expect(await search.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/v1/contacts/export');
    await search.getByLabel('Tag').fill('vip');
    await search.getByRole('button', { name: 'Search' }).click();
    await pollUntil(async () => (await page.getByTestId('contact-row').allTextContents()).join('|') === ['Rui Costa', '+14155550143', '—', 'vip'].join(''), {
      timeoutMs: 15_000,
      description: 'the imported contact found by its tag',
    });
    await search.getByLabel('Tag').fill('');
    await search.getByLabel('Name, email or number').fill('5550142');
    await search.getByRole('button', { name: 'Search' }).click();
    // the list keeps the tag search's one row until the new answer comes: wait for the customer's own row
    await pollUntil(
      async () => {
        const rows = await page.getByTestId('contact-row').allTextContents();
        return rows.length === 1 && rows[0].includes(CUSTOMER);
      },
      { timeoutMs: 15_000, description: 'the customer found by part of their number, alone' },
    );
    await page.getByTestId('contact-row').getByRole('link').click();

    // the contact's page: its number, its deal, the customer's message on the timeline
    await page.getByText(CUSTOMER).first().waitFor();
    await page.getByRole('region', { name: 'Deals' }).getByText('Forty blue tiles').waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByTestId('activity').filter({ hasText: WORDS }).getByText('From the customer on WhatsApp').waitFor({ timeout: 30_000 });
    const form = page.getByRole('form', { name: 'Add a note' });
    await form.getByLabel('Note').fill('Wants them delivered before June');
    await form.getByRole('button', { name: 'Add note' }).click();
    await timeline.getByTestId('activity').filter({ hasText: 'Wants them delivered before June' }).getByText('Note', { exact: true }).waitFor();
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'contact');

    // a company added and renamed on its page
    await openPage(page, 'Companies', 'Companies');
    const add = page.getByRole('form', { name: 'Add a company' });
    await add.getByLabel('Name').fill('Azulejos Lda');
    await add.getByLabel('Domain').fill('not a domain');
    await add.getByRole('button', { name: 'Add company' }).click();
    await add.getByText('The domain must be a domain name such as example.com.', { exact: true }).waitFor();
    await add.getByLabel('Domain').fill('azulejos.example');
    await add.getByRole('button', { name: 'Add company' }).click();
    const company = page.getByRole('form', { name: 'Company Azulejos Lda' });
    await company.getByLabel('Name').fill('Azulejos Porto Lda');
    await company.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('form', { name: 'Company Azulejos Porto Lda' }).waitFor();
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'companies');
    const companies = await api<{ data: { name: string; domain: string | null }[] }>('GET', '/api/v1/companies');
    expect(companies.body.data).toEqual([expect.objectContaining({ name: 'Azulejos Porto Lda', domain: 'azulejos.example' })]);

    await openPage(page, 'Pipeline', 'Pipeline');
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'pipeline');
    await page.getByRole('region', { name: /^new/ }).getByText('Forty blue tiles', { exact: true }).waitFor();
    await page.getByLabel('Stage of Forty blue tiles').selectOption('won');
    await page.getByRole('region', { name: /^won/ }).getByText('Forty blue tiles', { exact: true }).waitFor();
    await pollUntil(async () => (await api<{ stage: string }>('GET', `/api/v1/deals/${deal.body.id}`)).body.stage === 'won', { timeoutMs: 15_000, description: 'the deal won' });
    // the move is on the contact's timeline too (deal.stage_changed)
    await pollUntil(
      async () => (await api<{ data: { type: string; text: string | null }[] }>('GET', `/api/v1/contacts/${contact.id}/activities`)).body.data.some((e) => e.type === 'deal_stage_changed' && e.text?.includes('new → won')),
      { timeoutMs: 30_000, description: 'the stage change on the timeline' },
    );
  });

  it('plays an SMS customer in the Playground: the inbox labels the conversation SMS, and its channel filter hides the WhatsApp ones', async () => {
    const smsNumber = '+14155550160';
    const sms = await api<{ id: string; channel: string }>('POST', '/api/v1/channels/sms', { provider: 'sandbox', phone_number: smsNumber });
    expect(sms.status).toBe(201);
    expect([200, 201]).toContain((await api('PUT', '/api/v1/agents/support', { name: 'support', instruction: 'You are the assistant of Porto Tiles.', greeting: 'Olá from Porto Tiles!', skills: ['faq_responder'] })).status);
    const whatsapp = (await api<{ data: { channel: string; phone_number: string }[] }>('GET', '/api/v1/channels')).body.data.find((c) => c.channel === 'whatsapp')!;
    // A WhatsApp customer writes too: the filter must hide their conversation.
    const whatsappCustomer = '+14155550161';
    expect((await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: whatsappCustomer, to: whatsapp.phone_number, text: 'Do you ship to Lisbon?' } })).status).toBe(200);
    await pollUntil(async () => (await api<{ data: unknown[] }>('GET', `/api/v1/conversations?q=5550161`)).body.data.length === 1, { timeoutMs: 45_000, description: 'the WhatsApp conversation' });

    // The relay names a bad channel, a photo by SMS and a number of the other channel.
    const refused = async (body: object, field: string) => {
      const res = await api<{ errors: { field: string }[] }>('POST', '/api/v1/playground/inbound', body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field })]);
    };
    await refused({ channel: 'fax', from: '+14155550162', to: smsNumber, text: 'hi' }, 'channel');
    await refused({ channel: 'sms', from: '+14155550162', to: smsNumber, type: 'image', media: { base64: 'iVBORw0KGgo=', mime_type: 'image/png' } }, 'type');
    await refused({ channel: 'sms', from: '+14155550162', to: whatsapp.phone_number, text: 'hi' }, 'to');

    const { page } = browser;
    await openPage(page, 'Playground', 'Playground');
    await page.getByLabel('Your business number').selectOption(sms.body.id);
    expect(await page.getByTestId('playground-photo').count()).toBe(0); // an SMS carries no photo
    const customer = ((await page.getByTestId('playground-customer').textContent()) ?? '').trim();
    await page.getByRole('textbox', { name: 'Message' }).fill('Are your tiles frost-proof?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('chat-customer').filter({ hasText: 'Are your tiles frost-proof?' }).waitFor();
    // the agent's answer arrives as a text message from the SMS number
    const reply = page.getByTestId('chat-business').first();
    await reply.waitFor({ timeout: 45_000 });
    expect(((await reply.textContent()) ?? '').trim().startsWith('Olá from Porto Tiles!')).toBe(true);
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'playground (SMS)');

    await openPage(page, 'Inbox', 'Inbox');
    // The Playground's customer is apart from real ones: both are asked for here.
    await page.getByRole('search', { name: 'Filter conversations' }).getByLabel('From').selectOption('all');
    const smsItem = page.getByTestId('inbox-item').filter({ hasText: customer });
    await smsItem.waitFor({ timeout: 30_000 });
    expect(await smsItem.getAttribute('data-channel')).toBe('sms');
    expect(await smsItem.getByTestId('channel-badge').textContent()).toBe('Channel: SMS');
    const whatsappItem = page.getByTestId('inbox-item').filter({ hasText: whatsappCustomer });
    await whatsappItem.waitFor();
    expect(await whatsappItem.getByTestId('channel-badge').textContent()).toBe('Channel: WhatsApp');
    // Only SMS: the WhatsApp conversations leave the list, the SMS one stays.
    await page.getByRole('search', { name: 'Filter conversations' }).getByLabel('Channel').selectOption('sms');
    await pollUntil(async () => (await page.getByTestId('inbox-item').count()) > 0 && (await page.locator('[data-testid="inbox-item"]:not([data-channel="sms"])').count()) === 0, {
      timeoutMs: 15_000,
      description: 'only SMS conversations listed',
    });
    await smsItem.waitFor();
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'inbox filtered by channel');
    // the open thread names its channel too
    await smsItem.getByRole('link').click();
    const thread = page.getByRole('article', { name: /^Conversation with / });
    expect(await thread.getByTestId('channel-badge').textContent()).toBe('Channel: SMS');
    await thread.getByText('Are your tiles frost-proof?').waitFor();
    await settled(page);
    await expectNoSeriousA11yViolations(page, 'inbox thread (SMS)');
  });
});
