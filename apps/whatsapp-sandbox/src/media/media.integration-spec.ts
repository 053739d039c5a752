import type { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { createTestDatabase, pollUntil, type TestDatabase } from '@parley/testing';
import { createHash, randomBytes } from 'node:crypto';
import { sandboxAppOptions, whatsappSandboxModule } from '../app.module';
import { WhatsappSandboxConfig } from '../config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from '../database/whatsapp-sandbox.database';
import { GatewayReceiver } from '../test/gateway-receiver';

const APP_SECRET = 'test-meta-app-secret';
const CUSTOMER = '+16505551234';
const auth = { authorization: 'Bearer EAA-test-token' };

describe('whatsapp-sandbox media: the Cloud API upload, info and download routes, rich sends and inbound media', () => {
  let db: TestDatabase;
  let receiver: GatewayReceiver;
  let app: INestApplication;
  let base: string;
  let number: { phone_number: string; phone_number_id: string };

  async function json<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
    const response = await fetch(`${base}${path}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async function upload(bytes: Buffer, type: string): Promise<{ status: number; body: { id?: string; error?: { code: number } } }> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', type);
    form.append('file', new Blob([bytes], { type }), 'file.bin');
    const response = await fetch(`${base}/v21.0/${number.phone_number_id}/media`, { method: 'POST', headers: auth, body: form });
    return { status: response.status, body: (await response.json()) as { id?: string } };
  }

  beforeAll(async () => {
    db = await createTestDatabase('sandboxmedia');
    await runMigrations(db.url, whatsappSandboxDatabase);
    receiver = await GatewayReceiver.start(APP_SECRET, () => 200);
    const config = loadConfig(WhatsappSandboxConfig, { DATABASE_URL: db.url, PORT: '0', SANDBOX_SMTP_PORT: '0', LOG_LEVEL: 'warn', GATEWAY_URL: receiver.url, META_APP_SECRET: APP_SECRET });
    app = await createServiceApp(whatsappSandboxModule(config), sandboxAppOptions);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    number = (await json<{ phone_number: string; phone_number_id: string }>('POST', '/_sandbox/numbers', {})).body;
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('takes an upload, describes it at GET /{media_id} and serves its bytes at that URL with the token only', async () => {
    const bytes = randomBytes(2048);
    const uploaded = await upload(bytes, 'image/png');
    expect(uploaded).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^\d+$/) } });
    const info = await json<{ url: string; mime_type: string; sha256: string; file_size: number }>('GET', `/v21.0/${uploaded.body.id}`, undefined, auth);
    expect(info.body).toMatchObject({ messaging_product: 'whatsapp', mime_type: 'image/png', file_size: 2048, sha256: createHash('sha256').update(bytes).digest('base64'), id: uploaded.body.id });
    expect((await fetch(info.body.url)).status).toBe(401);
    const downloaded = Buffer.from(await (await fetch(info.body.url, { headers: auth })).arrayBuffer());
    expect(downloaded.equals(bytes)).toBe(true);
  });

  it('refuses an upload over its type’s limit or of a type WhatsApp does not send', async () => {
    expect((await upload(Buffer.alloc(5 * 1024 * 1024 + 1), 'image/jpeg')).body.error?.code).toBe(100);
    expect((await upload(Buffer.from('GIF89a'), 'image/gif')).body.error?.code).toBe(100);
  });

  it('sends media by an uploaded id, a location and interactive messages, and lists them as sent; refuses 4 buttons', async () => {
    const { body: media } = await upload(randomBytes(100), 'application/pdf');
    const send = (message: Record<string, unknown>) => json<{ messages?: { id: string }[]; error?: { message: string } }>('POST', `/v21.0/${number.phone_number_id}/messages`, { messaging_product: 'whatsapp', to: CUSTOMER, ...message }, auth);
    expect((await send({ type: 'document', document: { id: media.id, caption: 'Your receipt', filename: 'receipt.pdf' } })).status).toBe(200);
    expect((await send({ type: 'image', image: { id: '999999' } })).status).toBe(400);
    expect((await send({ type: 'location', location: { latitude: 52.37, longitude: 4.89, name: 'Office' } })).status).toBe(200);
    const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'reply', reply: { id: `b${i}`, title: `Option ${i}` } }));
    expect((await send({ type: 'interactive', interactive: { type: 'button', body: { text: 'Pick one' }, action: { buttons: buttons(3) } } })).status).toBe(200);
    const four = await send({ type: 'interactive', interactive: { type: 'button', body: { text: 'Pick one' }, action: { buttons: buttons(4) } } });
    expect(four.status).toBe(400);
    expect(four.body.error?.message).toContain('buttons');
    const listed = (await json<{ data: Record<string, unknown>[] }>('GET', `/_sandbox/messages?to=${encodeURIComponent(CUSTOMER)}`)).body.data;
    expect(listed.map((m) => m.type)).toEqual(['document', 'location', 'interactive']);
    expect(listed[0].document).toEqual({ id: media.id, caption: 'Your receipt', filename: 'receipt.pdf' });
    expect(listed[1].location).toMatchObject({ latitude: 52.37, longitude: 4.89 });
  });

  it('notifies a customer’s image and button reply in the Cloud API shapes; an injected failure answers 500 until spent', async () => {
    const bytes = randomBytes(500);
    const sent = await json<{ id: string }>('POST', '/_sandbox/inbound', { from: CUSTOMER, to: number.phone_number, type: 'image', media: { base64: bytes.toString('base64'), mime_type: 'image/jpeg', fail_downloads: 2 }, caption: 'my photo' });
    expect(sent.status).toBe(200);
    const reply = await json<{ id: string }>('POST', '/_sandbox/inbound', { from: CUSTOMER, to: number.phone_number, type: 'interactive', reply: { id: 'b1', title: 'Yes please' } });
    expect(reply.status).toBe(200);
    const messages = await pollUntil(
      () => {
        const all = receiver.received.flatMap((r) => (r.body.entry[0].changes[0].value.messages ?? []) as unknown as Record<string, Record<string, unknown>>[]);
        const image = all.find((m) => m.id === (sent.body.id as unknown));
        const tapped = all.find((m) => m.id === (reply.body.id as unknown));
        return image && tapped && { image, tapped };
      },
      { description: 'both notifications at the gateway' },
    );
    expect(messages.image).toMatchObject({ type: 'image', image: { mime_type: 'image/jpeg', caption: 'my photo', sha256: createHash('sha256').update(bytes).digest('base64') } });
    expect(messages.tapped).toMatchObject({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Yes please' } } });
    const info = await json<{ url: string }>('GET', `/v21.0/${String(messages.image.image.id)}`, undefined, auth);
    expect((await fetch(info.body.url, { headers: auth })).status).toBe(500);
    expect((await fetch(info.body.url, { headers: auth })).status).toBe(500);
    const third = await fetch(info.body.url, { headers: auth });
    expect(third.status).toBe(200);
    expect(Buffer.from(await third.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses a media message without media, naming the field', async () => {
    const answer = await json<{ errors: { field: string }[] }>('POST', '/_sandbox/inbound', { from: CUSTOMER, to: number.phone_number, type: 'video', caption: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e) => e.field)).toContain('media');
  });
});
