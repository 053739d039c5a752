import type { MessageReceivedData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT } from '../../../tools/dev/lib/stack.cjs';
import { Screenshots, launchBrowser, type Browser } from './dashboard/browser';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { copyableValue, createApiKey, openPage, settled, signInWithApiKey } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { sharedPlatform, type Platform } from './support/platform';
import { WebhookReceiver } from './support/webhook-receiver';

// The dashboard in a real Chromium, against the built stack: a business owner's whole onboarding, from sign-up to a
// customer's message answered by the agent, announced at the webhook receiver. Screenshots of each step are kept in
// test-artifacts/dashboard/.

const GREETING = 'Hello from Acme Bakery!';
const QUESTION = 'Hi, what are your opening hours?';
const SCREENSHOTS = join(ROOT, 'test-artifacts', 'dashboard');

function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

/** The focused element, as "TAG:text" (a string expression: this project compiles without the DOM types). */
const FOCUSED = 'document.activeElement ? document.activeElement.tagName + ":" + document.activeElement.textContent : ""';

function parse(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
}

describe('Dashboard in a real browser: onboarding to a first answered customer', () => {
  let platform: Platform;
  let receiver: WebhookReceiver;
  let browser: Browser;
  const shots = new Screenshots(SCREENSHOTS);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await sharedPlatform();
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  it('is served by the gateway at /dashboard, with the SPA fallback and a strict content policy', async () => {
    const index = await http('GET', `${platform.gateway}/dashboard`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('cache-control')).toBe('no-cache');
    // The script the page loads: JavaScript, cacheable for good (its name carries its content hash).
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(index.text)?.[1] ?? 'no script in the page';
    expect(script).toMatch(/^\/dashboard\/assets\/.+\.js$/);
    const asset = await http('GET', `${platform.gateway}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.text.length).toBeGreaterThan(1000);
    // A page of the app answers the same document; a missing asset is a 404 problem, not the page.
    const deep = await http('GET', `${platform.gateway}/dashboard/agents`);
    expect(deep.status).toBe(200);
    expect(deep.text).toBe(index.text);
    const missing = await http<{ status: number }>('GET', `${platform.gateway}/dashboard/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
  });

  it('walks sign-up → embedded signup → agent → webhook → send → playground → reply in the log and event at the receiver', async () => {
    const { page } = browser;
    await page.goto(`${platform.gateway}/dashboard`);

    // Signed out, the app shows sign-in; a wrong key shows the server's problem detail.
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
    await page.getByRole('textbox', { name: 'API key' }).fill('not-a-real-key');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).not.toBe('');
    await shots.take(page, 'sign-in-error');

    // 1. Sign up: straight into the product (credentials are made on request under Settings → Developers).
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Business name').fill('Acme Bakery');
    await page.getByLabel('Your email').fill('owner@acme-bakery.example');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();

    // The onboarding checklist: the business is named and has its sandbox number; no AI agent yet.
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
    await page.locator('.checklist li[data-done="true"]').first().waitFor();
    expect(await page.locator('.checklist li').count()).toBe(5);
    expect(await page.getByText(/client secret/i).count()).toBe(0);
    const agentStep = page.locator('.checklist li', { hasText: 'Create your AI agent' });
    expect(await agentStep.getAttribute('data-done')).toBe('false');
    await shots.take(page, 'onboarding');

    // 2. Connect a number with Meta's embedded signup (the sandbox plays Meta in development).
    await openPage(page, 'Channels', 'Channels');
    await page.getByRole('button', { name: 'Connect a WhatsApp number' }).click();
    await page.getByRole('radio', { name: /Meta/ }).check();
    await page.getByRole('button', { name: 'Start embedded signup' }).click();
    await page.getByRole('button', { name: 'Finish signup' }).click();
    const connectedNote = page.getByRole('status').filter({ hasText: 'Connected' });
    await connectedNote.waitFor();
    const metaNumber = /Connected (\+\d+)/.exec((await connectedNote.textContent()) ?? '')?.[1];
    if (!metaNumber) throw new Error('no connected number shown');
    await page.getByTestId(`channel-${metaNumber}`).waitFor();
    expect(await page.getByTestId(`channel-${metaNumber}`).textContent()).toContain('meta');
    await shots.take(page, 'channels-embedded-signup');

    // 3. Create an agent, and test an answer.
    await openPage(page, 'AI agents', 'AI agents');
    await page.getByText('No AI agent yet').waitFor();
    await page.getByRole('button', { name: 'New AI agent' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('support');
    await page.getByLabel(/^What it should do/).fill('You are the assistant of Acme Bakery. Answer questions about opening hours, orders and visits.');
    await page.getByLabel(/^Greeting/).fill(GREETING);
    await page.getByLabel('Capture leads (name, email, phone, interest)').check();
    await page.getByRole('button', { name: 'Add a FAQ' }).click();
    await page.getByLabel('Question 1').fill('What are your opening hours?');
    await page.getByLabel('Answer 1').fill('We are open Monday to Saturday, 8am to 6pm.');
    await page.getByRole('button', { name: 'Create AI agent' }).click();
    await page.getByRole('heading', { name: 'Edit support (version 1)' }).waitFor();
    await page.getByLabel('A customer writes').fill('When are you open?');
    await page.getByRole('button', { name: 'Ask support' }).click();
    await page.getByTestId('agent-test-reply').waitFor();
    expect(await page.getByTestId('agent-test-reply').textContent()).not.toBe('');
    // how sure it was, and the FAQ it used with that FAQ's score (CONTRACT.md §20)
    expect(await page.getByTestId('answer-confidence').textContent()).toMatch(/^Confidence \d{1,3}%$/);
    expect(await page.getByTestId('answer-sources').textContent()).toMatch(/^FAQ What are your opening hours\? \(\d{1,3}%\): We are open Monday/);
    await shots.take(page, 'agents');

    // The new number answers with that agent.
    await openPage(page, 'Channels', 'Channels');
    const answeringAgent = page.getByLabel(`AI agent answering ${metaNumber}`);
    await answeringAgent.selectOption('support');
    await pollUntil(async () => (await answeringAgent.inputValue()) === 'support' && !(await answeringAgent.isDisabled()), {
      timeoutMs: 15_000,
      description: 'the number to be answered by support',
    });

    // 4. Add a webhook endpoint pointing at the local receiver.
    await openPage(page, 'Webhooks', 'Webhooks');
    await page.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await pollUntil(async () => (await page.getByTestId('Signing secret').count()) > 0 && copyableValue(page, 'Signing secret'), {
      timeoutMs: 15_000,
      description: 'the new endpoint secret',
    });
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-endpoint').filter({ hasText: receiver.url }).waitFor();
    await shots.take(page, 'webhooks');

    // 5. Send a message; the live log shows it and its status.
    await openPage(page, 'Messages', 'Messages');
    await page.getByLabel(/^To/).fill('+14155550123');
    await page.getByLabel('Message', { exact: true }).fill('Your order is ready for pickup');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /Sent \(msg_/ }).waitFor();
    await page.locator('[data-testid="message"][data-direction="outbound"]', { hasText: 'Your order is ready for pickup' }).waitFor();
    await shots.take(page, 'messages-sent');

    // 6. Play the customer, writing to the number connected by embedded signup.
    await openPage(page, 'Playground', 'Playground');
    await page.getByLabel('Your business number').selectOption({ label: `${metaNumber} (meta, support)` });
    const customer = ((await page.getByTestId('playground-customer').textContent()) ?? '').trim();
    await page.getByRole('textbox', { name: 'Message' }).fill(QUESTION);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('chat-customer').filter({ hasText: QUESTION }).waitFor();
    const replyBubble = page.getByTestId('chat-business').first();
    await replyBubble.waitFor({ timeout: 45_000 });
    const reply = ((await replyBubble.textContent()) ?? '').trim();
    expect(reply.startsWith(GREETING)).toBe(true);
    // why: the agent's confidence and the FAQ it answered from, with its score
    await page.getByText('Why this answer?').first().click();
    const why = page.getByTestId('playground-why');
    await why.waitFor();
    expect(await why.getByTestId('answer-confidence').textContent()).toMatch(/^Confidence \d{1,3}%$/);
    expect(await why.getByTestId('answer-sources').textContent()).toContain('What are your opening hours?');
    await page.locator('[data-testid="playground-event"][data-event-type="message.received"]').waitFor({ timeout: 45_000 });
    await shots.take(page, 'playground');

    // The receiver got the signed event, verified with the secret the dashboard showed, carrying the reply shown.
    const delivery = await pollUntil(
      () => receiver.received.find((d) => parse(d.body).event === 'message.received' && parse(d.body).from === customer),
      { timeoutMs: 45_000, intervalMs: 250, description: 'message.received at the webhook receiver' },
    );
    const event = new Webhook(secret).verify(delivery.body, headerRecord(delivery.headers)) as MessageReceivedData;
    expect(event).toMatchObject({ event: 'message.received', tenant_id: expect.stringMatching(/^ten_/), message: QUESTION, agent_response: reply, agent: 'support' });

    // 7. The log shows the customer's message and the agent's reply.
    await openPage(page, 'Messages', 'Messages');
    await page.locator('[data-testid="message"][data-direction="inbound"]', { hasText: QUESTION }).waitFor();
    await page.locator('[data-testid="message"][data-direction="outbound"]', { hasText: GREETING }).waitFor();
    await shots.take(page, 'messages-log');

    // The rest of the pages, as the owner finds them now.
    await openPage(page, 'Conversations', 'Conversations');
    await page.getByRole('button', { name: new RegExp(customer.replace('+', '\\+')) }).click();
    await page.getByRole('article', { name: `Conversation with ${customer}` }).getByText(QUESTION).waitFor();
    await shots.take(page, 'conversations');

    // Every step but inviting the team is done (the playground's question counts).
    await openPage(page, 'Get started', 'Get started');
    await page.getByText('4 of 5').waitFor();
    expect(await page.locator('.checklist li', { hasText: 'Invite your team' }).getAttribute('data-done')).toBe('false');
    await shots.take(page, 'onboarding-complete');

    await openPage(page, 'Usage', 'Usage');
    expect(await page.getByTestId('usage-summary').textContent()).toMatch(/\d+ of 500 requests used today/);
    await shots.take(page, 'usage');

    const apiKey = await createApiKey(page, 'Sign-in key');
    expect(apiKey.length).toBeGreaterThan(20);
    await page.getByRole('textbox', { name: /Name/ }).fill('CRM sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('New API key').waitFor();
    await page.getByRole('row', { name: /CRM sync/ }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('row', { name: /CRM sync/ }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: /CRM sync/ }).waitFor({ state: 'detached' });
    await shots.take(page, 'api-keys');

    // Sign out, then back in with the API key made on the API keys page, using the keyboard only.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
    await page.getByRole('textbox', { name: 'API key' }).focus();
    await page.keyboard.type(apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
  }, 240_000);

  // A second business, made over the API, for the review fixes and the accessibility pass (its API key signs in).
  let reviewKey: string | undefined;
  async function reviewAccount(): Promise<string> {
    if (reviewKey) return reviewKey;
    const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Review Cafe' } });
    expect(account.status).toBe(201);
    reviewKey = account.body.api_key;
    return reviewKey;
  }

  it('keeps the fixes of the browser review: deep link, titles and focus, field errors for people, numbers as typed, edits and removals, the playground in order', async () => {
    const { page } = browser;
    const apiKey = await reviewAccount();

    // A deep link survives signing in; the tab is named for the page.
    await page.goto(`${platform.gateway}/dashboard/webhooks`);
    await signInWithApiKey(page, apiKey);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    expect(page.url()).toBe(`${platform.gateway}/dashboard/webhooks`);
    expect(await page.title()).toBe('Webhooks · Parley');
    // Checkboxes are 20 px (a finger finds them).
    const box = await page.getByRole('checkbox', { name: 'message.received' }).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(20);
    expect(box?.height).toBeGreaterThanOrEqual(20);

    // A webhook is edited in place; a test event shows in its deliveries without a reload; Replay asks first.
    await page.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const card = page.getByTestId('webhook-endpoint').filter({ hasText: receiver.url });
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit webhook ${receiver.url}` });
    await edit.getByLabel(/^Description/).fill('Orders system');
    await edit.getByRole('checkbox', { name: 'lead.updated' }).uncheck();
    await edit.getByRole('button', { name: 'Save endpoint' }).click();
    await card.getByText(/Orders system · enabled/).waitFor();
    expect(await card.getByText(/Orders system/).textContent()).not.toContain('lead.updated');
    await card.getByRole('button', { name: 'Send a test event' }).click();
    await card.getByTestId('delivery').first().waitFor({ timeout: 20_000 });
    // The delivery shows the exact body it sends.
    const testDelivery = card.locator('[data-testid="delivery"][data-event-type="webhook.test"]');
    await testDelivery.locator('summary').click();
    await testDelivery.getByRole('button', { name: 'View payload' }).click();
    const payload = testDelivery.getByTestId('delivery-payload');
    await payload.waitFor();
    expect(JSON.parse((await payload.textContent()) ?? '')).toMatchObject({ event: 'webhook.test', tenant_id: expect.stringMatching(/^ten_/) });
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await card.getByRole('button', { name: 'Replay' }).click();
    await pollUntil(() => asked !== '', { timeoutMs: 5_000, description: 'the replay confirmation' });
    expect(asked).toContain('Send again every event since');
    expect(await card.getByText(/queued again/).count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Replay' }).click();
    expect(await card.getByText(/queued again/).textContent()).toMatch(/^\d+ events? queued again\.$/);

    // After a navigation the page's heading has the focus, not the menu link; the title follows.
    await openPage(page, 'Messages', 'Messages');
    expect(await page.evaluate(FOCUSED)).toBe('H1:Messages');
    expect(await page.title()).toBe('Messages · Parley');

    // A refused field says what is wrong in words for people, tied to the field; correcting it clears it; a number
    // typed the way people write it is sent.
    const to = page.getByLabel(/^To/);
    await to.fill('415 555');
    await page.getByLabel('Message', { exact: true }).fill('Your table is ready');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('input[aria-invalid="true"]').waitFor();
    const describedBy = (await to.getAttribute('aria-describedby')) ?? 'none';
    expect(await page.locator(`#${describedBy}`).textContent()).toBe('The WhatsApp number must be a whole phone number with + and the country code, e.g. +1 415 555 0123.');
    expect(await page.getByRole('alert').textContent()).not.toMatch(/\bto must\b/);
    await to.fill('+1 (415) 555-0123');
    expect(await to.getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator(`#${describedBy}`).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /Sent \(msg_/ }).waitFor();
    await page.locator('[data-testid="message"][data-direction="outbound"]', { hasText: 'to +14155550123' }).waitFor();

    // An agent's booking hours: a time zone from the list, time pickers per day; a wrong zone is named in words.
    await openPage(page, 'AI agents', 'AI agents');
    // the list loaded first: its answer arriving re-renders the page and would close a form opened before it
    await settled(page);
    await page.getByRole('button', { name: 'New AI agent' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('host');
    await page.getByLabel(/^What it should do/).fill('You are the host of Review Cafe. Take table bookings.');
    await page.getByLabel('Book appointments in your opening hours').check();
    expect(await page.locator('#time-zones option').count()).toBeGreaterThan(300);
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByTestId('hours-sat').getByLabel('Open', { exact: true }).check();
    await page.getByRole('button', { name: 'Add a range on Monday' }).click();
    await page.getByLabel('Monday range 2 from').fill('18:00');
    await page.getByLabel('Monday range 2 to').fill('21:30');
    await page.getByRole('button', { name: 'Remove Friday range 1' }).click();
    await page.getByRole('button', { name: 'Create AI agent' }).click();
    await page.locator('input[aria-invalid="true"]').waitFor();
    const zone = page.getByLabel('Time zone');
    expect(await page.locator(`#${(await zone.getAttribute('aria-describedby')) ?? 'none'}`).textContent()).toBe(
      'The time zone must be a time zone from the list, e.g. Europe/Berlin.',
    );
    await zone.fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Create AI agent' }).click();
    await page.getByRole('heading', { name: 'Edit host (version 1)' }).waitFor();
    const saved = await http<{ booking: { timezone: string; opening_hours: Record<string, string[][]> } }>('GET', `${platform.gateway}/api/v1/agents/host`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(saved.body.booking.timezone).toBe('Europe/Berlin');
    expect(saved.body.booking.opening_hours).toEqual({
      mon: [
        ['09:00', '17:00'],
        ['18:00', '21:30'],
      ],
      tue: [['09:00', '17:00']],
      wed: [['09:00', '17:00']],
      thu: [['09:00', '17:00']],
      sat: [['09:00', '17:00']],
    });

    // The playground: bubbles in the order written, and the same customer on the next visit.
    await openPage(page, 'Playground', 'Playground');
    const customer = ((await page.getByTestId('playground-customer').textContent()) ?? '').trim();
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello there');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('chat-business').first().waitFor({ timeout: 45_000 });
    await page.getByRole('textbox', { name: 'Message' }).fill('Are you open on Saturday?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByTestId('chat-business').nth(1).waitFor({ timeout: 45_000 });
    const order = async () => page.locator('.chat li').evaluateAll((items) => items.map((i) => i.getAttribute('data-testid')));
    const bubbles = await order();
    expect(bubbles[0]).toBe('chat-customer');
    expect(bubbles.indexOf('chat-business')).toBeLessThan(bubbles.lastIndexOf('chat-customer'));
    await openPage(page, 'Messages', 'Messages');
    await openPage(page, 'Playground', 'Playground');
    expect(((await page.getByTestId('playground-customer').textContent()) ?? '').trim()).toBe(customer);
    await page.getByTestId('chat-business').nth(1).waitFor();
    expect((await order()).slice(0, bubbles.length)).toEqual(bubbles);

    // A number is disconnected, and an agent deleted, each after a confirmation.
    await openPage(page, 'Channels', 'Channels');
    await page.getByRole('button', { name: 'Connect a WhatsApp number' }).click();
    await page.getByRole('radio', { name: /Sandbox/ }).check();
    await page.getByRole('button', { name: 'Add a sandbox number' }).click();
    const added = /Added sandbox number (\+\d+)/.exec((await page.getByRole('status').filter({ hasText: 'Added sandbox number' }).textContent()) ?? '')?.[1];
    if (!added) throw new Error('no sandbox number added');
    await page.getByTestId(`channel-${added}`).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Disconnect ${added}` }).click();
    await page.getByTestId(`channel-${added}`).waitFor({ state: 'detached' });

    await openPage(page, 'AI agents', 'AI agents');
    await page.getByRole('button', { name: /^host/ }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete AI agent' }).click();
    await page.getByText('No AI agent yet').waitFor();
  }, 240_000);

  it('has no serious or critical accessibility violation on any page (axe-core), signed out and signed in', async () => {
    const { page } = browser;
    await page.goto(`${platform.gateway}/dashboard/sign-up`);
    await page.getByRole('heading', { level: 1, name: 'Create your Parley account' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'sign-up');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Parley' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'sign-in');
    await signInWithApiKey(page, await reviewAccount());
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();

    // Every page of the menu, as it shows once loaded.
    const labels = await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();
    expect(labels.length).toBeGreaterThanOrEqual(9);
    for (const label of labels) {
      const link = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: label, exact: true });
      await link.click();
      await page.locator('nav a[aria-current="page"]', { hasText: label }).waitFor();
      await settled(page);
      await expectNoSeriousA11yViolations(page, label);
    }
    // The agent editor with every section open (skills, FAQs, booking hours).
    await openPage(page, 'AI agents', 'AI agents');
    await page.getByRole('button', { name: 'New AI agent' }).click();
    await page.getByLabel('Book appointments in your opening hours').check();
    await page.getByRole('button', { name: 'Add a FAQ' }).click();
    await expectNoSeriousA11yViolations(page, 'new agent');
  }, 300_000);

  it('fits a phone-sized screen', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      await phone.page.goto(`${platform.gateway}/dashboard/sign-up`);
      await phone.page.getByRole('heading', { name: 'Create your Parley account' }).waitFor();
      // Nothing wider than the screen: no sideways scrolling of the page.
      // (a string expression: this project compiles without the DOM types)
      const overflow = Number(await phone.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(overflow).toBeLessThanOrEqual(0);
      await shots.take(phone.page, 'phone-sign-up');

      // Signed in (with an API key of an account made over the API), the pages fit too.
      const account = await http<{ api_key: string }>('POST', `${platform.gateway}/api/v1/accounts`, { json: { name: 'Corner Shop' } });
      expect(account.status).toBe(201);
      await phone.page.getByRole('link', { name: 'Sign in' }).click();
      await phone.page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
      await phone.page.getByRole('textbox', { name: 'API key' }).fill(account.body.api_key);
      await phone.page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await phone.page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
      await phone.page.locator('.checklist li').first().waitFor();
      for (const [label, heading] of [
        ['Get started', 'Get started'],
        ['Channels', 'Channels'],
        ['Playground', 'Playground'],
      ] as const) {
        await openPage(phone.page, label, heading);
        expect(Number(await phone.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'))).toBeLessThanOrEqual(0);
      }
      await shots.take(phone.page, 'phone-playground');

      // The menu is behind the Menu button; opened, the whole of it shows within the screen; each number keeps its
      // AI agent picker.
      const nav = phone.page.getByRole('navigation', { name: 'Dashboard' });
      expect(await nav.isVisible()).toBe(false);
      await phone.page.getByRole('button', { name: 'Menu' }).click();
      const lastLink = await nav.getByRole('link').last().boundingBox();
      expect(lastLink && lastLink.x >= 0 && lastLink.x + lastLink.width <= 390).toBe(true);
      await openPage(phone.page, 'Channels', 'Channels');
      expect(await nav.isVisible()).toBe(false);
      const picker = await phone.page.getByLabel(/^AI agent answering/).first().boundingBox();
      expect(picker && picker.x >= 0 && picker.x + picker.width <= 390).toBe(true);
      await shots.take(phone.page, 'phone-numbers');
    } finally {
      await phone.close();
    }
  });
});
