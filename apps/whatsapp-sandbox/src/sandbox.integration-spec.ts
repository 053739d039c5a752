import type { INestApplication } from '@nestjs/common';
import { createServiceApp, loadConfig, runMigrations } from '@parley/service-kit';
import { createTestDatabase, pollUntil, type TestDatabase } from '@parley/testing';
import { sandboxAppOptions, whatsappSandboxModule } from './app.module';
import type { CloudNotification } from './cloud-api/notifications';
import { WhatsappSandboxConfig } from './config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from './database/whatsapp-sandbox.database';
import { GatewayReceiver } from './test/gateway-receiver';

const APP_ID = 'test-meta-app';
const APP_SECRET = 'test-meta-app-secret';
const CUSTOMER = '+16505551234';
const OTHER_CUSTOMER = '+14155550123';

interface Answer<T = Record<string, unknown>> {
  status: number;
  contentType: string;
  body: T;
}

/** While true, the gateway stand-in refuses customers' messages (503, as a gateway that cannot queue them answers). */
let refusingInbound = false;

/** The gateway stand-in's rules: inbound messages while `refusingInbound` get a 503; a status tagged `fail-once` fails its first attempt. */
function respond(body: CloudNotification, attempt: number): number {
  const value = body.entry[0]?.changes[0]?.value;
  if (value?.messages && refusingInbound) return 503;
  if (value?.statuses?.some((s) => s.biz_opaque_callback_data === 'fail-once') && attempt === 1) return 500;
  return 200;
}

describe('whatsapp-sandbox over HTTP and PostgreSQL', () => {
  let db: TestDatabase;
  let receiver: GatewayReceiver;
  let config: WhatsappSandboxConfig;
  let app: INestApplication;
  let base: string;

  async function startApp(): Promise<void> {
    app = await createServiceApp(whatsappSandboxModule(config), sandboxAppOptions);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  }

  async function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: (text ? JSON.parse(text) : null) as T };
  }

  const auth = { authorization: 'Bearer EAA-test-token' };
  const provision = async (body: unknown = {}) => (await call<{ phone_number: string; phone_number_id: string; display_phone_number: string }>('POST', '/_sandbox/numbers', body)).body;
  const sendText = (phoneNumberId: string, to: string, text: string, extra: Record<string, unknown> = {}) =>
    call<{ messages: { id: string }[] }>('POST', `/v21.0/${phoneNumberId}/messages`, { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body: text }, ...extra }, auth);
  const listMessages = async (query: string) => (await call<{ data: { id: string; timestamp: string; to: string; text?: { body: string } }[] }>('GET', `/_sandbox/messages?${query}`)).body.data;

  beforeAll(async () => {
    db = await createTestDatabase('sandbox');
    await runMigrations(db.url, whatsappSandboxDatabase);
    receiver = await GatewayReceiver.start(APP_SECRET, respond);
    config = loadConfig(WhatsappSandboxConfig, {
      DATABASE_URL: db.url,
      PORT: '0',
      SANDBOX_SMTP_PORT: '0',
      LOG_LEVEL: 'warn',
      GATEWAY_URL: receiver.url,
      META_APP_ID: APP_ID,
      META_APP_SECRET: APP_SECRET,
      SANDBOX_STATUS_CALLBACKS: 'true',
      // Retries within a test's patience; the pauses still grow.
      SANDBOX_NOTIFY_RETRY_MS: '100,200,400',
    });
    await startApp();
  });

  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await db?.drop();
  });

  describe('numbers', () => {
    it('allocates the next free number of the fictional block, and provisions a given number once', async () => {
      const first = await call('POST', '/_sandbox/numbers', {});
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        phone_number: '+12015550100',
        phone_number_id: expect.stringMatching(/^[1-9]\d{14}$/),
        display_phone_number: '+1 201 555 0100',
        waba_id: expect.stringMatching(/^\d{15}$/),
        verified_name: 'Sandbox Business',
        registered: false,
        created_at: expect.any(String),
      });
      const second = await call('POST', '/_sandbox/numbers'); // no body at all
      expect(second.status).toBe(201);
      expect(second.body.phone_number).toBe('+12015550101');

      const given = await call('POST', '/_sandbox/numbers', { phone_number: '+447911123456' });
      expect(given.status).toBe(201);
      expect(given.body).toMatchObject({ phone_number: '+447911123456', display_phone_number: '+44 7911 123456' });
      const again = await call('POST', '/_sandbox/numbers', { phone_number: '+447911123456' });
      expect(again.status).toBe(200);
      expect(again.body.phone_number_id).toBe(given.body.phone_number_id);

      // a given number inside the block is skipped by allocation
      await call('POST', '/_sandbox/numbers', { phone_number: '+12015550102' });
      expect((await provision()).phone_number).toBe('+12015550103');

      const list = await call<{ data: { phone_number: string }[] }>('GET', '/_sandbox/numbers');
      expect(list.body.data.map((n) => n.phone_number)).toEqual(expect.arrayContaining(['+12015550100', '+12015550101', '+447911123456', '+12015550103']));
    });

    it('refuses a number that is not E.164 with a problem naming the field', async () => {
      const bad = await call('POST', '/_sandbox/numbers', { phone_number: '555-0100' });
      expect(bad.status).toBe(400);
      expect(bad.contentType).toContain('application/problem+json');
      expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'phone_number' })]);
      const unknown = await call('POST', '/_sandbox/numbers', { phone: '+12015550150' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'phone' })]);
    });
  });

  describe('Cloud API send route', () => {
    it('accepts a text in the Cloud API shape, lists it, and reports sent, delivered and read, signed', async () => {
      const number = await provision();
      const sent = await sendText(number.phone_number_id, CUSTOMER, 'Your order has shipped');
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({
        messaging_product: 'whatsapp',
        contacts: [{ input: CUSTOMER, wa_id: '16505551234' }],
        messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]+$/) }],
      });
      const wamid = sent.body.messages[0].id;

      const listed = await listMessages(`from=${encodeURIComponent(number.phone_number)}`);
      expect(listed).toEqual([
        {
          id: wamid,
          phone_number_id: number.phone_number_id,
          from: number.phone_number,
          to: CUSTOMER,
          type: 'text',
          text: { body: 'Your order has shipped' },
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);

      await pollUntil(() => receiver.statusesOf(wamid).length === 3, { description: 'sent, delivered and read for the message' });
      expect(receiver.statusesOf(wamid)).toEqual(['sent', 'delivered', 'read']);
      for (const delivery of receiver.attemptsFor(wamid)) {
        expect(delivery.path).toBe('/webhooks/whatsapp');
        expect(delivery.signatureValid).toBe(true);
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.body).toEqual({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: expect.stringMatching(/^\d{15}$/),
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { display_phone_number: number.phone_number.slice(1), phone_number_id: number.phone_number_id },
                    statuses: [{ id: wamid, status: expect.any(String), timestamp: expect.stringMatching(/^\d{10}$/), recipient_id: '16505551234' }],
                  },
                },
              ],
            },
          ],
        });
      }
    });

    it('filters the list on digits (to, from) and since, oldest first', async () => {
      const a = await provision();
      const b = await provision();
      const m1 = (await sendText(a.phone_number_id, CUSTOMER, 'one')).body.messages[0].id;
      const m2 = (await sendText(b.phone_number_id, CUSTOMER, 'two')).body.messages[0].id;
      const m3 = (await sendText(a.phone_number_id, '14155550123', 'three')).body.messages[0].id;

      const fromA = await listMessages(`from=${encodeURIComponent(a.display_phone_number)}`);
      expect(fromA.map((m) => m.id)).toEqual([m1, m3]);
      expect(fromA[1].to).toBe(OTHER_CUSTOMER);
      // "+" arrives as a space when not encoded; digits still match
      expect((await listMessages(`to=+14155550123&from=${a.phone_number.slice(1)}`)).map((m) => m.id)).toEqual([m3]);
      const toCustomer = (await listMessages(`to=${encodeURIComponent(CUSTOMER)}`)).map((m) => m.id);
      expect(toCustomer.indexOf(m1)).toBeLessThan(toCustomer.indexOf(m2));

      // since: inclusive, RFC 3339
      const c = await provision();
      const early = (await sendText(c.phone_number_id, CUSTOMER, 'early')).body.messages[0].id;
      const [earlyListed] = await listMessages(`from=${c.phone_number.slice(1)}`);
      const cut = Date.parse(earlyListed.timestamp) + 1;
      await pollUntil(() => Date.now() > cut, { description: 'the clock to pass the first message' });
      const late = (await sendText(c.phone_number_id, CUSTOMER, 'late')).body.messages[0].id;
      expect((await listMessages(`from=${c.phone_number.slice(1)}&since=${earlyListed.timestamp}`)).map((m) => m.id)).toEqual([early, late]);
      expect((await listMessages(`from=${c.phone_number.slice(1)}&since=${new Date(cut).toISOString()}`)).map((m) => m.id)).toEqual([late]);

      const bad = await call('GET', '/_sandbox/messages?since=yesterday');
      expect(bad.status).toBe(400);
      expect(bad.contentType).toContain('application/problem+json');
      expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'since' })]);
    });

    it('retries a notification the gateway refused, with back-off, until it is taken', async () => {
      const number = await provision();
      const wamid = (await sendText(number.phone_number_id, CUSTOMER, 'retry me', { biz_opaque_callback_data: 'fail-once' })).body.messages[0].id;
      await pollUntil(() => receiver.statusesOf(wamid).length === 3, { description: 'all three statuses despite refusals' });
      expect(receiver.statusesOf(wamid)).toEqual(['sent', 'delivered', 'read']);
      const attempts = receiver.attemptsFor(wamid);
      expect(attempts.filter((a) => a.answered === 500)).toHaveLength(3); // the first attempt of each status
      expect(attempts.every((a) => a.signatureValid)).toBe(true);
      expect(attempts[0].body.entry[0].changes[0].value.statuses?.[0].biz_opaque_callback_data).toBe('fail-once');
    });

    it('plays a slow provider: the message is taken and reported at once, only the answer is late', async () => {
      const number = await provision();
      const set = await call('PUT', `/_sandbox/numbers/${number.phone_number_id}/behaviour`, { answer_delay_ms: 1_500 });
      expect(set).toMatchObject({ status: 200, body: { phone_number_id: number.phone_number_id, answer_delay_ms: 1_500, pair_interval_ms: 0 } });
      const started = Date.now();
      const answer = sendText(number.phone_number_id, CUSTOMER, 'slow', { biz_opaque_callback_data: 'msg_slow' });
      // Stored and reported before the answer comes.
      const stored = await pollUntil(async () => (await listMessages(`from=${encodeURIComponent(number.phone_number)}`)).find((m) => m.text?.body === 'slow'), {
        description: 'the slow message stored',
      });
      await pollUntil(() => receiver.statusesOf(stored.id).includes('sent'), { description: 'its sent status' });
      expect(Date.now() - started).toBeLessThan(1_500);
      const sent = await answer;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500 - 20);
      expect(sent).toMatchObject({ status: 200, body: { messages: [{ id: stored.id }] } });
      expect(receiver.attemptsFor(stored.id)[0].body.entry[0].changes[0].value.statuses?.[0]).toMatchObject({ biz_opaque_callback_data: 'msg_slow' });

      await call('PUT', `/_sandbox/numbers/${number.phone_number_id}/behaviour`, { answer_delay_ms: 0 });
      expect((await call('PUT', '/_sandbox/numbers/999/behaviour', { answer_delay_ms: 1 })).status).toBe(404);
      expect((await call('PUT', `/_sandbox/numbers/${number.phone_number_id}/behaviour`, { answer_delay_ms: -1 })).status).toBe(400);
    });

    it('plays the pair rate limit: a second message to one customer too soon is refused with 131056, others go through', async () => {
      const number = await provision();
      await call('PUT', `/_sandbox/numbers/${number.phone_number_id}/behaviour`, { pair_interval_ms: 60_000 });
      expect((await sendText(number.phone_number_id, CUSTOMER, 'one')).status).toBe(200);
      const refused = await sendText(number.phone_number_id, CUSTOMER, 'two');
      expect(refused).toMatchObject({ status: 400, body: { error: { code: 131056, type: 'OAuthException' } } });
      expect((await sendText(number.phone_number_id, OTHER_CUSTOMER, 'three')).status).toBe(200);
    });

    it('answers a read receipt with {success: true} and stores nothing', async () => {
      const number = await provision();
      const read = await call('POST', `/v21.0/${number.phone_number_id}/messages`, { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.X' }, auth);
      expect(read).toMatchObject({ status: 200, body: { success: true } });
      expect(await listMessages(`from=${number.phone_number.slice(1)}`)).toEqual([]);
    });

    it('fails like the Cloud API: 401/190 without a token, 400/100 for an unknown number or a too-long text', async () => {
      const number = await provision();
      const body = { messaging_product: 'whatsapp', to: CUSTOMER, type: 'text', text: { body: 'hi' } };

      const noToken = await call('POST', `/v21.0/${number.phone_number_id}/messages`, body);
      expect(noToken.status).toBe(401);
      expect(noToken.contentType).toContain('application/json');
      expect(noToken.body).toEqual({ error: { message: expect.any(String), type: 'OAuthException', code: 190, fbtrace_id: expect.any(String) } });
      expect((await call('POST', `/v21.0/${number.phone_number_id}/messages`, body, { authorization: 'Bearer ' })).status).toBe(401);

      const unknown = await call('POST', '/v21.0/999999999999999/messages', body, auth);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        error: { message: expect.stringContaining("'999999999999999' does not exist"), type: 'GraphMethodException', code: 100, error_subcode: 33, fbtrace_id: expect.any(String) },
      });

      const tooLong = await sendText(number.phone_number_id, CUSTOMER, 'x'.repeat(4097));
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toEqual({
        error: {
          message: "(#100) Param text['body'] must be at most 4096 characters long.",
          type: 'OAuthException',
          code: 100,
          error_data: { messaging_product: 'whatsapp', details: "Param text['body'] must be at most 4096 characters long." },
          fbtrace_id: expect.any(String),
        },
      });

      const badRecipient = await sendText(number.phone_number_id, '+1555', 'hi');
      expect(badRecipient).toMatchObject({ status: 400, body: { error: { code: 131009 } } });

      const malformed = await call('POST', `/v21.0/${number.phone_number_id}/messages`, '{"messaging_product":', auth);
      expect(malformed.status).toBe(400);
      expect(malformed.contentType).toContain('application/json');
      expect(malformed.body).toMatchObject({ error: { type: 'OAuthException', code: 100, fbtrace_id: expect.any(String) } });

      const badVersion = await call('POST', `/latest/${number.phone_number_id}/messages`, body, auth);
      expect(badVersion).toMatchObject({ status: 400, body: { error: { code: 2500 } } });

      expect(await listMessages(`from=${number.phone_number.slice(1)}`)).toEqual([]);
    });
  });

  describe('inbound', () => {
    it('delivers the exact Cloud API notification, signed, and answers with its wamid once the gateway took it', async () => {
      const number = await provision();
      const answer = await call<{ id: string }>('POST', '/_sandbox/inbound', { from: CUSTOMER, to: number.display_phone_number, text: 'Do you open on Sundays? 🍰' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id: expect.stringMatching(/^wamid\./) });

      const [delivery] = receiver.attemptsFor(answer.body.id);
      expect(delivery.signatureValid).toBe(true);
      expect(delivery.path).toBe('/webhooks/whatsapp');
      expect(delivery.body).toEqual({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: expect.stringMatching(/^\d{15}$/),
            changes: [
              {
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: number.phone_number.slice(1), phone_number_id: number.phone_number_id },
                  contacts: [{ profile: { name: 'Sandbox Customer' }, wa_id: '16505551234' }],
                  messages: [{ from: '16505551234', id: answer.body.id, timestamp: expect.stringMatching(/^\d{10}$/), type: 'text', text: { body: 'Do you open on Sundays? 🍰' } }],
                },
                field: 'messages',
              },
            ],
          },
        ],
      });
      const sentAt = Number(delivery.body.entry[0].changes[0].value.messages![0].timestamp);
      expect(Math.abs(sentAt - Date.now() / 1000)).toBeLessThan(60);
    });

    it('answers 202 queued while the gateway refuses, retries with growing pauses, and delivers each customer’s messages in the order written', async () => {
      const number = await provision();
      const write = (from: string, text: string) => call<{ id: string; queued?: boolean }>('POST', '/_sandbox/inbound', { from, to: number.phone_number, text });
      refusingInbound = true;
      try {
        const answers = [await write(CUSTOMER, 'first'), await write(CUSTOMER, 'second'), await write(CUSTOMER, 'third'), await write(OTHER_CUSTOMER, 'other')];
        for (const answer of answers) expect(answer).toMatchObject({ status: 202, body: { id: expect.stringMatching(/^wamid\./), queued: true } });
        const [first, second, third, other] = answers.map((a) => a.body.id);

        const refused = await pollUntil(() => receiver.attemptsFor(first).length >= 3 && receiver.attemptsFor(first), { description: 'three refused attempts of the first message' });
        expect(refused.every((a) => a.answered === 503 && a.signatureValid)).toBe(true);
        expect(refused[2].at - refused[1].at).toBeGreaterThanOrEqual(200 - 20); // the second pause, longer than the first (100 ms)
        // The customer's later messages wait behind the first; another customer's are retried on their own.
        expect([...receiver.attemptsFor(second), ...receiver.attemptsFor(third)]).toEqual([]);
        expect(receiver.attemptsFor(other).length).toBeGreaterThanOrEqual(1);

        refusingInbound = false;
        const taken = (id: string) => receiver.attemptsFor(id).some((a) => a.answered === 200);
        await pollUntil(() => [first, second, third, other].every(taken), { description: 'every queued message taken once the gateway is back' });
        const takenFromCustomer = receiver.received
          .filter((r) => r.answered === 200)
          .flatMap((r) => r.body.entry[0].changes[0].value.messages ?? [])
          .filter((m) => [first, second, third].includes(m.id));
        expect(takenFromCustomer.map((m) => m.text.body)).toEqual(['first', 'second', 'third']);
        for (const id of [first, second, third, other]) expect(receiver.attemptsFor(id).filter((a) => a.answered === 200)).toHaveLength(1);
      } finally {
        refusingInbound = false;
      }

      // With the gateway taking messages again (and nothing owed for the customer), the answer is 200 at once.
      const later = await write(CUSTOMER, 'fourth');
      expect(later).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^wamid\./) } });
      expect(later.body.queued).toBeUndefined();
      expect(receiver.attemptsFor(later.body.id).map((a) => a.answered)).toEqual([200]);
    });

    it('answers 404 for a number the sandbox does not serve, 400 naming each broken field', async () => {
      const unknown = await call('POST', '/_sandbox/inbound', { from: CUSTOMER, to: '+19995550100', text: 'hello?' });
      expect(unknown.status).toBe(404);
      expect(unknown.contentType).toContain('application/problem+json');

      const bad = await call('POST', '/_sandbox/inbound', { from: '12345', text: '' });
      expect(bad.status).toBe(400);
      expect(new Set((bad.body.errors as { field: string }[]).map((e) => e.field))).toEqual(new Set(['from', 'text', 'to']));
    });
  });

  describe('embedded signup Graph routes', () => {
    it('exchanges a code for a token, subscribes, registers an unknown number, reads it, and can then send and receive', async () => {
      const exchange = await call('GET', `/v21.0/oauth/access_token?client_id=${APP_ID}&client_secret=${APP_SECRET}&code=AQBx-popup-code`);
      expect(exchange.status).toBe(200);
      expect(exchange.body).toEqual({ access_token: expect.stringMatching(/^EAA[A-Za-z0-9]+$/), token_type: 'bearer' });
      const business = { authorization: `Bearer ${exchange.body.access_token as string}` };

      expect(await call('POST', '/v21.0/203040506070809/subscribed_apps', undefined, business)).toMatchObject({ status: 200, body: { success: true } });
      expect(await call('POST', '/v21.0/203040506070809/subscribed_apps')).toMatchObject({ status: 401, body: { error: { code: 190 } } });

      const phoneNumberId = '109876543210987';
      expect(await call('GET', `/v21.0/${phoneNumberId}`, undefined, business)).toMatchObject({ status: 400, body: { error: { code: 100, error_subcode: 33 } } });
      expect(await call('POST', `/v21.0/${phoneNumberId}/register`, { messaging_product: 'whatsapp', pin: '12' }, business)).toMatchObject({
        status: 400,
        body: { error: { code: 100, type: 'OAuthException' } },
      });
      const registered = await call('POST', `/v21.0/${phoneNumberId}/register`, { messaging_product: 'whatsapp', pin: '123456' }, business);
      expect(registered).toMatchObject({ status: 200, body: { success: true } });
      expect((await call('POST', `/v21.0/${phoneNumberId}/register`, { messaging_product: 'whatsapp', pin: '123456' }, business)).status).toBe(200);

      const read = await call<{ display_phone_number: string }>('GET', `/v21.0/${phoneNumberId}`, undefined, business);
      expect(read).toMatchObject({ status: 200 });
      expect(read.body).toEqual({ id: phoneNumberId, display_phone_number: expect.stringMatching(/^\+1 \d{3} 555 01\d\d$/), verified_name: 'Sandbox Business', quality_rating: 'GREEN' });
      const numbers = (await call<{ data: { phone_number_id: string; registered: boolean }[] }>('GET', '/_sandbox/numbers')).body.data;
      expect(numbers.find((n) => n.phone_number_id === phoneNumberId)).toMatchObject({ registered: true });

      expect((await sendText(phoneNumberId, CUSTOMER, 'connected!')).status).toBe(200);
      const inbound = await call('POST', '/_sandbox/inbound', { from: CUSTOMER, to: read.body.display_phone_number, text: 'hi' });
      expect(inbound.status).toBe(200);
      expect(receiver.attemptsFor(inbound.body.id as string)[0].body.entry[0].changes[0].value.metadata.phone_number_id).toBe(phoneNumberId);
    });

    it('fails the exchange for the code "invalid", a wrong secret, an unknown app or a redirect_uri, in the Graph shape', async () => {
      const exchange = (query: string) => call('GET', `/v21.0/oauth/access_token?${query}`);
      const invalid = await exchange(`client_id=${APP_ID}&client_secret=${APP_SECRET}&code=invalid`);
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ error: { message: expect.any(String), type: 'OAuthException', code: 100, error_subcode: 36007, fbtrace_id: expect.any(String) } });
      expect(await exchange(`client_id=${APP_ID}&client_secret=wrong&code=abc`)).toMatchObject({ status: 400, body: { error: { code: 1 } } });
      expect(await exchange(`client_id=other-app&client_secret=${APP_SECRET}&code=abc`)).toMatchObject({ status: 400, body: { error: { code: 101 } } });
      expect(await exchange(`client_id=${APP_ID}&client_secret=${APP_SECRET}&code=abc&redirect_uri=https%3A%2F%2Fx.test`)).toMatchObject({
        status: 400,
        body: { error: { code: 100, error_subcode: 36008 } },
      });
    });
  });

  describe('routing', () => {
    it('keeps /_sandbox/* and /health* apart from the Graph object route', async () => {
      expect(await call('GET', '/_sandbox/messages')).toMatchObject({ status: 200, body: { data: expect.any(Array) } });
      expect(await call('GET', '/_sandbox/numbers')).toMatchObject({ status: 200, body: { data: expect.any(Array) } });
      expect(await call('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await call('GET', '/health/ready')).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: { ok: true } } } });
    });
  });

  describe('restarts', () => {
    it('keeps numbers and messages in PostgreSQL across a restart', async () => {
      const number = await provision();
      const wamid = (await sendText(number.phone_number_id, CUSTOMER, 'before the restart')).body.messages[0].id;
      await app.close();
      await startApp();

      const numbers = (await call<{ data: { phone_number_id: string }[] }>('GET', '/_sandbox/numbers')).body.data;
      expect(numbers.map((n) => n.phone_number_id)).toContain(number.phone_number_id);
      expect((await listMessages(`from=${number.phone_number.slice(1)}`)).map((m) => m.id)).toEqual([wamid]);
      expect((await sendText(number.phone_number_id, CUSTOMER, 'after the restart')).status).toBe(200);
      expect((await provision()).phone_number).not.toBe(number.phone_number);
    });
  });
});
