import type { MessageReceivedData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT } from '../../../tools/dev/lib/stack.cjs';
import { Screenshots, launchBrowser, type Browser } from './dashboard/browser';
import { copyableValue, openPage } from './dashboard/dashboard-pages';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';
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
    platform = await startPlatform();
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
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).not.toBe('');
    await shots.take(page, 'sign-in-error');

    // 1. Sign up: the credentials are shown once, with copy buttons and a warning.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Business name').fill('Acme Bakery');
    await page.getByLabel('Your email').fill('owner@acme-bakery.example');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    const tenantId = await copyableValue(page, 'Tenant ID');
    const apiKey = await copyableValue(page, 'API key');
    expect(tenantId).toMatch(/^ten_/);
    expect(apiKey.length).toBeGreaterThan(20);
    expect(await copyableValue(page, 'Client secret')).not.toBe('');
    await page.getByRole('button', { name: 'Copy API key' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('only this once');
    await shots.take(page, 'sign-up-credentials');
    await page.getByLabel('I have saved my client secret and API key').check();
    await page.getByRole('button', { name: 'Continue to the dashboard' }).click();

    // The onboarding checklist: only the account is done (every account also has its sandbox number).
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
    await page.locator('.checklist li[data-done="true"]').first().waitFor();
    expect(await page.locator('.checklist li').count()).toBe(5);
    const agentStep = page.locator('.checklist li', { hasText: 'Configure an agent' });
    expect(await agentStep.getAttribute('data-done')).toBe('false');
    await shots.take(page, 'onboarding');

    // 2. Connect a number with Meta's embedded signup (the sandbox plays Meta in development).
    await openPage(page, 'WhatsApp numbers', 'WhatsApp numbers');
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
    await openPage(page, 'Agents', 'Agents');
    await page.getByText('No agent yet').waitFor();
    await page.getByRole('button', { name: 'New agent' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('support');
    await page.getByLabel('Instruction').fill('You are the assistant of Acme Bakery. Answer questions about opening hours, orders and visits.');
    await page.getByLabel(/^Greeting/).fill(GREETING);
    await page.getByLabel('Capture leads (name, email, phone, interest)').check();
    await page.getByRole('button', { name: 'Add a FAQ' }).click();
    await page.getByLabel('Question 1').fill('What are your opening hours?');
    await page.getByLabel('Answer 1').fill('We are open Monday to Saturday, 8am to 6pm.');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Edit support (version 1)' }).waitFor();
    await page.getByLabel('A customer writes').fill('When are you open?');
    await page.getByRole('button', { name: 'Ask support' }).click();
    await page.getByTestId('agent-test-reply').waitFor();
    expect(await page.getByTestId('agent-test-reply').textContent()).not.toBe('');
    await shots.take(page, 'agents');

    // The new number answers with that agent.
    await openPage(page, 'WhatsApp numbers', 'WhatsApp numbers');
    const answeringAgent = page.getByLabel(`Agent answering ${metaNumber}`);
    await answeringAgent.selectOption('support');
    await pollUntil(async () => (await answeringAgent.inputValue()) === 'support' && !(await answeringAgent.isDisabled()), {
      timeoutMs: 15_000,
      description: 'the number to be answered by support',
    });

    // 4. Add a webhook endpoint pointing at the local receiver.
    await openPage(page, 'Settings → Webhooks', 'Settings → Webhooks');
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
    await page.locator('[data-testid="playground-event"][data-event-type="message.received"]').waitFor({ timeout: 45_000 });
    await shots.take(page, 'playground');

    // The receiver got the signed event, verified with the secret the dashboard showed, carrying the reply shown.
    const delivery = await pollUntil(
      () => receiver.received.find((d) => parse(d.body).event === 'message.received' && parse(d.body).from === customer),
      { timeoutMs: 45_000, intervalMs: 250, description: 'message.received at the webhook receiver' },
    );
    const event = new Webhook(secret).verify(delivery.body, headerRecord(delivery.headers)) as MessageReceivedData;
    expect(event).toMatchObject({ event: 'message.received', tenant_id: tenantId, message: QUESTION, agent_response: reply, agent: 'support' });

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

    await openPage(page, 'Get started', 'Get started');
    await page.getByText('5 of 5').waitFor();
    await shots.take(page, 'onboarding-complete');

    await openPage(page, 'Usage', 'Usage');
    expect(await page.getByTestId('usage-summary').textContent()).toMatch(/\d+ of 500 requests used today/);
    await shots.take(page, 'usage');

    await openPage(page, 'API keys', 'API keys');
    await page.getByRole('textbox', { name: /Name/ }).fill('CRM sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('New API key').waitFor();
    await page.getByRole('row', { name: /CRM sync/ }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('row', { name: /CRM sync/ }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: /CRM sync/ }).waitFor({ state: 'detached' });
    await shots.take(page, 'api-keys');

    // Sign out, then back in with the API key from sign-up, using the keyboard only.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with an API key instead' }).click();
    await page.getByRole('textbox', { name: 'API key' }).focus();
    await page.keyboard.type(apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
  }, 240_000);

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
      await phone.page.getByRole('button', { name: 'Sign in' }).click();
      await phone.page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
      await phone.page.locator('.checklist li').first().waitFor();
      for (const [label, heading] of [
        ['Get started', 'Get started'],
        ['WhatsApp numbers', 'WhatsApp numbers'],
        ['Playground', 'Playground'],
      ] as const) {
        await openPage(phone.page, label, heading);
        expect(Number(await phone.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'))).toBeLessThanOrEqual(0);
      }
      await shots.take(phone.page, 'phone-playground');
    } finally {
      await phone.close();
    }
  });
});
