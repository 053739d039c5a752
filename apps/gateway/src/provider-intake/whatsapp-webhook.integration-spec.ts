import { Topics, type WhatsappWebhookEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { GatewayTestApp, TEST_META_APP_SECRET, TEST_META_VERIFY_TOKEN } from '../test/gateway-test-app';
import { metaSignature } from './meta-signature';

/** A Cloud API notification as Meta sends it, with spacing and non-ASCII text that any re-serialisation would change. */
const notification = (phoneNumberId: string, text: string) =>
  `{"object": "whatsapp_business_account",  "entry": [{"id": "102290129340398", "changes": [{"value": {"messaging_product": "whatsapp",
"metadata": {"display_phone_number": "15550783881", "phone_number_id": "${phoneNumberId}"},
"contacts": [{"profile": {"name": "Zoë"}, "wa_id": "16505551234"}],
"messages": [{"from": "16505551234", "id": "wamid.${Date.now()}", "timestamp": "1749416383", "type": "text", "text": {"body": "${text}"}}]}, "field": "messages"}]}]}`;

describe('gateway: WhatsApp Cloud API intake (real Kafka)', () => {
  let gw: GatewayTestApp;
  let webhooks: TopicProbe<WhatsappWebhookEvent>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwintake');
    webhooks = await gw.kafka.probe<WhatsappWebhookEvent>(Topics.WhatsappWebhook);
  });

  afterAll(async () => {
    await webhooks?.stop();
    await gw?.close();
  });

  describe('GET /webhooks/whatsapp (verification)', () => {
    it('echoes the challenge as plain text when the verify token matches', async () => {
      const answer = await gw.request('GET', `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${TEST_META_VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/plain');
      expect(answer.body).toBe('1158201444');
    });

    it.each([
      ['a wrong token', `hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`],
      ['another mode', `hub.mode=unsubscribe&hub.verify_token=${TEST_META_VERIFY_TOKEN}&hub.challenge=1`],
      ['no parameters', ''],
    ])('answers 403 for %s', async (_label, query) => {
      const answer = await gw.request('GET', `/webhooks/whatsapp?${query}`);
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    });
  });

  describe('POST /webhooks/whatsapp (notifications)', () => {
    it('queues a validly signed body byte for byte on whatsapp.webhook, keyed by phone_number_id, then answers 200', async () => {
      const raw = notification('106540352242922', 'Grüße 👋 — \\"quoted\\" \\u00e9');
      const answer = await gw.request('POST', '/webhooks/whatsapp', {
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET), 'x-request-id': 'req-meta-1' },
      });
      expect(answer.status).toBe(200);
      // Acknowledged means already durable: the message is on the topic by now (the probe may still be reading it).
      const queued = await pollUntil(() => webhooks.find((m) => m.headers['x-request-id'] === 'req-meta-1'), { description: 'whatsapp.webhook' });
      expect(queued.key).toBe('106540352242922');
      expect(queued.value).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'whatsapp.webhook',
        version: 2,
        tenant_id: null,
        occurred_at: expect.any(String),
        data: { provider: 'meta', channel_id: null, raw_body: raw, received_at: expect.any(String) },
      });
      expect(Buffer.from(queued.value.data.raw_body, 'utf8').equals(Buffer.from(raw, 'utf8'))).toBe(true);
    });

    it('acknowledges a validly signed body of an unexpected shape (keyed "unknown") so the provider does not redeliver', async () => {
      const raw = '{"object":"something_else","hello":[1,2,3]}';
      const answer = await gw.request('POST', '/webhooks/whatsapp', {
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET), 'x-request-id': 'req-meta-odd' },
      });
      expect(answer.status).toBe(200);
      const queued = await pollUntil(() => webhooks.find((m) => m.headers['x-request-id'] === 'req-meta-odd'), { description: 'whatsapp.webhook' });
      expect(queued.key).toBe('unknown');
      expect(queued.value.data.raw_body).toBe(raw);
    });

    // CONTRACT.md §7: any validly signed body answers 200; messaging-service dead-letters what it cannot understand
    // (messaging.integration-spec.ts, "dead-letters a notification that is not a Cloud API notification").
    it.each([
      ['not JSON at all', 'application/json', 'not json at all'],
      ['truncated JSON', 'application/json', '{"object": "whatsapp_business_account", "entry": ['],
      ['empty', 'application/json', ''],
      ['plain text', 'text/plain', 'hello from a proxy'],
      ['a form', 'application/x-www-form-urlencoded', 'object=whatsapp_business_account'],
    ])('acknowledges a validly signed body that is %s (%s) and queues it as it came', async (label, contentType, raw) => {
      const requestId = `req-meta-garbage-${label.replace(/\W+/g, '-')}`;
      const answer = await gw.request('POST', '/webhooks/whatsapp', {
        rawBody: raw,
        headers: { 'content-type': contentType, 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET), 'x-request-id': requestId },
      });
      expect(answer.status).toBe(200);
      const queued = await pollUntil(() => webhooks.find((m) => m.headers['x-request-id'] === requestId), { description: 'whatsapp.webhook' });
      expect(queued.key).toBe('unknown');
      expect(queued.value.data).toEqual({ provider: 'meta', channel_id: null, raw_body: raw, received_at: expect.any(String) });

      const unsigned = await gw.request('POST', '/webhooks/whatsapp', { rawBody: raw, headers: { 'content-type': contentType, 'x-request-id': `${requestId}-unsigned` } });
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.type).toBe('https://parley.dev/problems/unauthorized');
    });

    it('accepts provider bodies above the API limit of 1 MiB', async () => {
      const raw = notification('106540352242922', 'x'.repeat(2 * 1024 * 1024));
      const answer = await gw.request('POST', '/webhooks/whatsapp', {
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET) },
      });
      expect(answer.status).toBe(200);
    });

    it.each([
      ['missing', undefined],
      ['signed with another secret', 'other-secret'],
      ['not hex', 'sha256=zz'],
    ])('refuses a signature that is %s with 401 and queues nothing', async (label, how) => {
      const raw = notification('106540352242922', `unsigned ${label}`);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': `req-bad-${label}` };
      if (how === 'other-secret') headers['x-hub-signature-256'] = metaSignature(raw, 'other-secret');
      else if (how) headers['x-hub-signature-256'] = how;
      const answer = await gw.request('POST', '/webhooks/whatsapp', { rawBody: raw, headers });
      expect(answer.status).toBe(401);
      expect(answer.body.type).toBe('https://parley.dev/problems/unauthorized');
    });

    it('refuses a body that was changed after signing', async () => {
      const raw = notification('106540352242922', 'original');
      const signature = metaSignature(raw, TEST_META_APP_SECRET);
      const answer = await gw.request('POST', '/webhooks/whatsapp', {
        rawBody: raw.replace('original', 'tampered'),
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      });
      expect(answer.status).toBe(401);
    });
  });
});
