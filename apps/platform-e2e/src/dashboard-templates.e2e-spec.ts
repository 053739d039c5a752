import { pollUntil } from '@parley/testing';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { Client } from 'pg';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ROOT } from '../../../tools/dev/lib/stack.cjs';
import { expectNoSeriousA11yViolations } from './dashboard/accessibility';
import { launchBrowser, type Browser } from './dashboard/browser';
import { createApiKey, openPage } from './dashboard/dashboard-pages';
import { apiClient } from './support/api';
import { http } from './support/http';
import { startPlatform, type Platform } from './support/platform';

// Templates in a real Chromium against the built stack (CONTRACT §13, issue 20): the owner writes one with a live
// preview of the WhatsApp bubble, sees it PENDING and then APPROVED when the sandbox's review ends (live, through
// template.status on the event stream), and sees a `reject_…` one REJECTED with its reason. Then a customer's 24-hour
// window closes, and the inbox's reply box offers the approved template instead: filled in and sent, the customer
// receives it, and the thread keeps it as the member's message; the Playground shows a photo, a location and offered
// buttons as such, and its customer attaches a photo that the inbox thread shows with the very bytes attached. The
// Templates and inbox-template screenshots of docs/screenshots/ are taken here.

const OWNER = { business: 'Harbor Books', name: 'Hana Reed', email: 'owner@harbor-books.example', password: 'paper-and-ink-42' };
const TEMPLATE = {
  name: 'order_ready',
  body: 'Hi {{1}}, your order {{2}} is ready for pickup.',
  examples: ['Ana', 'A-17'],
  footer: 'Harbor Books',
  button: 'Thanks!',
};
const SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
/** A real 1×1 PNG: the gateway types an upload by its content. */
const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A real PNG of one colour (its chunks' CRCs computed), so the photo the Playground's customer attaches is its own. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])));
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface SandboxMessage {
  to: string;
  type: string;
  template?: { name: string; language: { code: string }; components?: { type: string; parameters: { type: string; text: string }[] }[] };
}

describe('Dashboard in a real browser: message templates and the closed 24-hour window', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    // A review long enough to see PENDING on the page before it ends (the default is 2 s). A stack of its own: on the
    // shared one the page once never saw the review's end (APPROVED) within 30 s, cause not found.
    platform = await startPlatform({ SANDBOX_TEMPLATE_REVIEW_MS: '6000' });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, 60_000);

  it('creates a template with a live preview, sees it PENDING then APPROVED, a rejected one with its reason, sends it from the inbox once the window is closed and sees it in the thread, sees a photo, a location and offered buttons in the Playground, and a photo attached there in the inbox', async () => {
    const { page } = browser;

    await page.goto(`${platform.gateway}/dashboard/sign-up`);
    await page.getByRole('heading', { name: 'Create your Parley account' }).waitFor();
    await page.getByLabel('Business name').fill(OWNER.business);
    await page.getByLabel(/^Your name/).fill(OWNER.name);
    await page.getByLabel('Your email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Get started' }).waitFor();
    const apiKey = await createApiKey(page);
    const api = apiClient(platform.gateway, apiKey);

    // The form: variables get example fields, and the preview shows the bubble with them filled in.
    await openPage(page, 'Templates', 'Templates');
    await page.getByText('No template yet').waitFor();
    const form = page.getByRole('form', { name: 'Create a template' });
    await form.getByLabel('Name').fill(TEMPLATE.name);
    await form.getByLabel('Body').fill(TEMPLATE.body);
    await form.getByLabel('Example for {{1}}').fill(TEMPLATE.examples[0]);
    await form.getByLabel('Example for {{2}}').fill(TEMPLATE.examples[1]);
    await form.getByLabel(/^Footer/).fill(TEMPLATE.footer);
    await form.getByRole('button', { name: 'Add a button' }).click();
    await form.getByRole('group', { name: 'Button 1' }).getByLabel('Label').fill(TEMPLATE.button);
    const preview = form.getByRole('figure', { name: 'Preview of the new template' });
    await preview.getByText('Hi Ana, your order A-17 is ready for pickup.').waitFor();
    await preview.getByText(TEMPLATE.footer).waitFor();
    await preview.getByText(TEMPLATE.button).waitFor();
    await expectNoSeriousA11yViolations(page, 'templates (form filled)');

    await form.getByRole('button', { name: 'Submit for review' }).click();
    await page.locator('[data-testid="template-created"][data-status="PENDING"]').waitFor();
    const item = page.locator(`[data-testid="template-item"][data-name="${TEMPLATE.name}"]`);
    await item.locator('[data-testid="template-status"][data-status="PENDING"]').waitFor();
    // No reload: the review's end reaches the page as template.status.
    await item.locator('[data-testid="template-status"][data-status="APPROVED"]').waitFor({ timeout: 30_000 });
    const stored = (await api.GET('/api/v1/templates')).data!.data.find((t) => t.name === TEMPLATE.name)!;
    expect(stored).toMatchObject({
      status: 'APPROVED',
      category: 'UTILITY',
      language: 'en_US',
      components: [
        { type: 'BODY', text: TEMPLATE.body, example: { body_text: [TEMPLATE.examples] } },
        { type: 'FOOTER', text: TEMPLATE.footer },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: TEMPLATE.button }] },
      ],
    });

    // A name the sandbox's reviewer rejects: REJECTED, with the reason the provider gave.
    await form.getByLabel('Name').fill('reject_this_offer');
    await form.getByLabel('Category').selectOption('MARKETING');
    await form.getByLabel('Body').fill('Everything half price today only!');
    await form.getByRole('button', { name: 'Submit for review' }).click();
    const rejected = page.locator('[data-testid="template-item"][data-name="reject_this_offer"]');
    await rejected.locator('[data-testid="template-status"][data-status="REJECTED"]').waitFor({ timeout: 30_000 });
    const reason = (await api.GET('/api/v1/templates')).data!.data.find((t) => t.name === 'reject_this_offer')!.reason;
    expect(reason).toEqual(expect.any(String));
    await rejected.getByTestId('template-reason').getByText(reason!).waitFor();
    await expectNoSeriousA11yViolations(page, 'templates (reviewed)');
    await saveTemplatesScreenshot();

    // A customer wrote more than 24 hours ago. No API moves time, so the conversation's last message is moved back a day.
    const channel = (await api.GET('/api/v1/channels')).data!.data[0];
    const agent = await api.PUT('/api/v1/agents/{agent_name}', {
      params: { path: { agent_name: 'support' } },
      body: { name: 'support', instruction: 'You are the assistant of Harbor Books.', greeting: '', skills: ['faq_responder'], faqs: [{ question: 'When do you open?', answer: 'Every day from 9am to 7pm.' }] },
    });
    expect(agent.response.status).toBe(201);
    expect((await api.PATCH('/api/v1/channels/{channel_id}', { params: { path: { channel_id: channel.id } }, body: { agent: 'support' } })).response.status).toBe(200);
    const customer = '+14155550187';
    const inbound = await http('POST', `${platform.sandbox}/_sandbox/inbound`, { json: { from: customer, to: channel.phone_number, text: 'Is my order ready?' } });
    expect(inbound.status).toBe(200);
    const conversationId = await pollUntil(
      async () => (await api.GET('/api/v1/conversations', { params: { query: { q: customer } } })).data?.data.find((c) => c.customer === customer)?.id,
      { timeoutMs: 30_000, description: "the customer's conversation" },
    );
    await closeServiceWindow(conversationId);
    const closed = (await api.GET('/api/v1/conversations/{id}', { params: { path: { id: conversationId } } })).data!;
    expect(Date.parse(closed.window_expires_at)).toBeLessThan(Date.now());

    // The thread says the window is closed, and its reply box offers the approved template (not the rejected one).
    await page.goto(`${platform.gateway}/dashboard/inbox/${conversationId}`);
    const thread = page.getByRole('article', { name: /^Conversation with / });
    await thread.locator('[data-testid="reply-window"][data-open="false"]').waitFor();
    expect(await thread.getByLabel('Reply to the customer').count()).toBe(0);
    const offer = page.getByRole('form', { name: 'Send a template' });
    // The offer loads the number's approved templates after the form appears: wait for ours before reading the list.
    await offer.getByLabel('Template').locator('option', { hasText: `${TEMPLATE.name} (en_US)` }).waitFor({ state: 'attached', timeout: 15_000 });
    const choices = await offer.getByLabel('Template').locator('option').allTextContents();
    expect(choices).toContain(`${TEMPLATE.name} (en_US)`);
    expect(choices.some((c) => c.startsWith('reject_this_offer'))).toBe(false);
    await offer.getByLabel('Template').selectOption({ label: `${TEMPLATE.name} (en_US)` });
    await offer.getByLabel('Body {{1}}').fill('Maya');
    await offer.getByLabel('Body {{2}}').fill('B-204');
    await offer.getByRole('figure').getByText('Hi Maya, your order B-204 is ready for pickup.').waitFor();
    await expectNoSeriousA11yViolations(page, 'inbox thread (window closed)');
    await offer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'inbox-template.png') });
    await offer.getByRole('button', { name: 'Send template' }).click();
    await offer.getByTestId('template-sent').waitFor();

    // WhatsApp (the sandbox) delivered the template with the parameters filled in.
    const delivered = await pollUntil(
      async () => {
        const res = await http<{ data: SandboxMessage[] }>('GET', `${platform.sandbox}/_sandbox/messages?to=${encodeURIComponent(customer)}`);
        return res.body.data.find((m) => m.type === 'template');
      },
      { timeoutMs: 30_000, description: 'the template at the sandbox' },
    );
    expect(delivered.template).toMatchObject({
      name: TEMPLATE.name,
      language: { code: 'en_US' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Maya' }, { type: 'text', text: 'B-204' }] }],
    });
    // The thread keeps it like any reply of hers: her message, naming the template (live, without a reload).
    const sentTemplate = thread.locator('[data-testid="thread-message"][data-author="member"]').filter({ has: page.getByTestId('message-template') });
    await sentTemplate.getByText(TEMPLATE.name).waitFor({ timeout: 30_000 });
    const kept = (await api.GET('/api/v1/conversations/{id}', { params: { path: { id: conversationId } } })).data!;
    expect(kept.messages.at(-1)).toMatchObject({ role: 'member', author: { type: 'member' }, type: 'template', template: { name: TEMPLATE.name, language: 'en_US' } });

    // The Playground shows what its customer received beyond text: a photo with its caption, a location with a map
    // link, the buttons offered.
    await openPage(page, 'Playground', 'Playground');
    const player = ((await page.getByTestId('playground-customer').textContent()) ?? '').trim();
    const send = async (json: Record<string, unknown>) =>
      expect((await http('POST', `${platform.gateway}/v1/send`, { token: apiKey, json: { channel: 'whatsapp', to: player, ...json } })).status).toBe(200);
    const file = new FormData();
    file.append('file', new Blob([ONE_PIXEL_PNG], { type: 'image/png' }), 'shelf.png');
    const uploaded = (await (await fetch(`${platform.gateway}/api/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: file })).json()) as { id: string };
    await send({ type: 'image', media_id: uploaded.id, caption: 'New arrivals on the shelf' });
    await send({ type: 'location', location: { latitude: 38.7107, longitude: -9.1393, name: 'Harbor Books', address: 'Rua Augusta 10, Lisbon' } });
    await send({ type: 'interactive', interactive: { type: 'button', body: 'Pick up or delivery?', buttons: [{ id: 'pickup', title: 'Pick up' }, { id: 'deliver', title: 'Delivery' }] } });
    const chat = page.getByRole('list', { name: 'Conversation' });
    await chat.locator('[data-testid="message-media"][data-kind="image"]', { hasText: 'New arrivals on the shelf' }).waitFor({ timeout: 30_000 });
    const place = chat.getByTestId('message-location');
    await place.getByText('Rua Augusta 10, Lisbon').waitFor({ timeout: 30_000 });
    expect(await place.getByRole('link', { name: 'Open Harbor Books on the map' }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=38.7107&mlon=-9.1393#map=16/38.7107/-9.1393',
    );
    const offered = chat.getByTestId('chat-business').filter({ hasText: 'Pick up or delivery?' });
    await offered.waitFor({ timeout: 30_000 });
    expect(await offered.getByRole('list', { name: 'Choices offered' }).getByRole('listitem').allTextContents()).toEqual(['Pick up', 'Delivery']);
    await expectNoSeriousA11yViolations(page, 'playground (rich messages)');

    // The Playground's customer attaches a photo (only a JPEG or PNG); the inbox thread shows that photo, byte for byte.
    const notAPhoto = await http<{ errors: { field: string }[] }>('POST', `${platform.gateway}/api/v1/playground/inbound`, {
      token: apiKey,
      json: { from: player, to: channel.phone_number, type: 'image', media: { base64: Buffer.from('%PDF-1.4\n').toString('base64'), mime_type: 'application/pdf' } },
    });
    expect(notAPhoto.status).toBe(400);
    expect(notAPhoto.body.errors.map((e) => e.field)).toEqual(['media.mime_type']);
    const photo = solidPng(24, 16, [0x2e, 0x7d, 0x32]);
    await page.getByTestId('playground-photo').setInputFiles({ name: 'torn-cover.png', mimeType: 'image/png', buffer: photo });
    await page.getByLabel('Caption').fill('The cover arrived torn');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await chat.getByTestId('chat-customer').filter({ hasText: 'The cover arrived torn' }).locator('[data-testid="message-media"][data-kind="image"]').waitFor();
    const photoConversation = await pollUntil(
      async () => (await api.GET('/api/v1/conversations', { params: { query: { q: player } } })).data?.data.find((c) => c.customer === player)?.id,
      { timeoutMs: 30_000, description: "the Playground customer's conversation" },
    );
    await page.goto(`${platform.gateway}/dashboard/inbox/${photoConversation}`);
    const shown = page
      .locator('[data-testid="thread-message"][data-author="customer"]')
      .filter({ hasText: 'The cover arrived torn' })
      .locator('[data-testid="message-media"][data-kind="image"] img');
    await shown.waitFor({ timeout: 30_000 });
    await pollUntil(() => shown.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth === 24), { timeoutMs: 10_000, description: 'the photo drawn' });
    const fetched = await shown.evaluate(async (img: { src: string }) => {
      const res = await fetch(img.src);
      return { status: res.status, type: res.headers.get('content-type'), bytes: Array.from(new Uint8Array(await res.arrayBuffer())) };
    });
    expect({ status: fetched.status, type: fetched.type, length: fetched.bytes.length, sha256: sha256(Uint8Array.from(fetched.bytes)) }).toEqual({
      status: 200,
      type: 'image/png',
      length: photo.length,
      sha256: sha256(photo),
    });
    await expectNoSeriousA11yViolations(page, 'inbox thread (a photo)');
  }, 300_000);

  /** Moves the conversation's last customer message 25 hours back (the responder owns it; its window follows from it). */
  async function closeServiceWindow(conversationId: string): Promise<void> {
    const db = new Client({ connectionString: platform.databaseUrl });
    await db.connect();
    try {
      const moved = await db.query(`UPDATE responder.conversations SET last_message_at = now() - interval '25 hours' WHERE id = $1`, [conversationId]);
      expect(moved.rowCount).toBe(1);
    } finally {
      await db.end();
    }
  }

  async function saveTemplatesScreenshot(): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await browser.page.setViewportSize({ width: 1280, height: 900 });
    await browser.page.screenshot({ path: join(SCREENSHOTS, 'templates-desktop.png'), fullPage: true });
  }
});
