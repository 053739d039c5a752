import { Topics, type WhatsappWebhookEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { createHmac } from 'node:crypto';
import { metaSignature } from '../provider-intake/meta-signature';
import { GatewayTestApp, TEST_META_APP_SECRET } from '../test/gateway-test-app';

const PHONE_NUMBER_ID = '106540352242999';
/** One phone_number_id for every notification: they share a partition, so the topic keeps their order. */
const notification = (text: string) =>
  `{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"${PHONE_NUMBER_ID}"},"messages":[{"from":"16505551234","id":"wamid.${text}","timestamp":"1749416383","type":"text","text":{"body":"${text}"}}]},"field":"messages"}]}]}`;

/**
 * Issue 9, attacker's pass: unsigned and mis-signed provider notifications (CONTRACT.md §7) are refused with 401
 * problem+json and never queued for processing; a valid signature only covers the exact bytes it was made over.
 */
describe('gateway security: unsigned and mis-signed provider webhooks (real Kafka)', () => {
  let gw: GatewayTestApp;
  let queued: TopicProbe<WhatsappWebhookEvent>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwintakeauth');
    queued = await gw.kafka.probe<WhatsappWebhookEvent>(Topics.WhatsappWebhook);
  });

  afterAll(async () => {
    await queued?.stop();
    await gw?.close();
  });

  const post = (path: string, rawBody: string, headers: Record<string, string>, requestId: string) =>
    gw.request('POST', path, { rawBody, headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers } });

  /** Sends a validly signed notification after the others and waits for it: anything they queued is on the topic by then. */
  const barrier = async (label: string) => {
    const raw = notification(`barrier-${label}`);
    const requestId = `barrier-${label}`;
    expect((await post('/webhooks/whatsapp', raw, { 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET) }, requestId)).status).toBe(200);
    await pollUntil(() => queued.find((m) => m.headers['x-request-id'] === requestId), { description: `the ${label} barrier notification` });
  };

  it('refuses every missing or wrong X-Hub-Signature-256 with 401 problem+json and queues none of them', async () => {
    const raw = notification('attack');
    const good = metaSignature(raw, TEST_META_APP_SECRET);
    const hex = good.slice('sha256='.length);
    const other = notification('something-else');
    const variants: Record<string, { body: string; headers: Record<string, string> }> = {
      'no signature': { body: raw, headers: {} },
      'empty signature': { body: raw, headers: { 'x-hub-signature-256': '' } },
      'signature of other bytes': { body: raw, headers: { 'x-hub-signature-256': metaSignature(other, TEST_META_APP_SECRET) } },
      'valid signature, one byte appended': { body: `${raw} `, headers: { 'x-hub-signature-256': good } },
      'valid signature, same JSON re-serialised': { body: JSON.stringify(JSON.parse(raw), null, 1), headers: { 'x-hub-signature-256': good } },
      'valid signature, text changed': { body: raw.replace('"body":"attack"', '"body":"attacK"'), headers: { 'x-hub-signature-256': good } },
      'signed with another secret': { body: raw, headers: { 'x-hub-signature-256': metaSignature(raw, 'not-the-app-secret') } },
      'signed with the verify token': { body: raw, headers: { 'x-hub-signature-256': metaSignature(raw, 'test-verify-token') } },
      'sha1 signature in the sha256 header': { body: raw, headers: { 'x-hub-signature-256': `sha1=${createHmac('sha1', TEST_META_APP_SECRET).update(raw).digest('hex')}` } },
      'only the legacy X-Hub-Signature': { body: raw, headers: { 'x-hub-signature': `sha1=${createHmac('sha1', TEST_META_APP_SECRET).update(raw).digest('hex')}` } },
      'hex without the sha256= prefix': { body: raw, headers: { 'x-hub-signature-256': hex } },
      'truncated signature': { body: raw, headers: { 'x-hub-signature-256': good.slice(0, -2) } },
      'signature with extra hex': { body: raw, headers: { 'x-hub-signature-256': `${good}00` } },
      'base64 instead of hex': { body: raw, headers: { 'x-hub-signature-256': `sha256=${Buffer.from(hex, 'hex').toString('base64')}` } },
      'all zeros': { body: raw, headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` } },
      'two signatures in one header': { body: raw, headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}, ${good}` } },
    };
    const answers = await Promise.all(Object.entries(variants).map(async ([label, v]) => ({ label, answer: await post('/webhooks/whatsapp', v.body, v.headers, `mis-signed ${label}`) })));
    for (const { label, answer } of answers) {
      expect({ label, status: answer.status }).toEqual({ label, status: 401 });
      expect({ label, type: answer.headers.get('content-type') }).toEqual({ label, type: expect.stringContaining('application/problem+json') });
      expect({ label, problem: answer.body.type }).toEqual({ label, problem: 'https://parley.dev/problems/unauthorized' });
    }
    await barrier('meta');
    expect(queued.messages.filter((m) => String(m.headers['x-request-id']).startsWith('mis-signed'))).toEqual([]);
    expect(queued.messages.filter((m) => m.value.data.raw_body.includes('"body":"attac'))).toEqual([]);
  });

  it('refuses a 360dialog notification without its channel token, or with an impossible one, and queues nothing', async () => {
    const raw = notification('dialog-attack');
    const channel = '/webhooks/360dialog/chn_01JAAAAAAAAAAAAAAAAAAAAAAA';
    const variants: Record<string, Record<string, string>> = {
      'no token': {},
      'empty token': { 'x-channel-token': '' },
      'a token over 512 characters': { 'x-channel-token': 'x'.repeat(513) },
      'the Meta signature instead': { 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET) },
    };
    for (const [label, headers] of Object.entries(variants)) {
      const answer = await post(channel, raw, headers, `unsigned-360 ${label}`);
      expect({ label, status: answer.status, problem: answer.body.type }).toEqual({ label, status: 401, problem: 'https://parley.dev/problems/unauthorized' });
    }
    for (const [path, status] of [['/webhooks/360dialog/not-a-channel', 404], ['/webhooks/360dialog/..%2f..%2fadmin', 404]] as const) {
      const answer = await post(path, raw, { 'x-channel-token': 'x' }, `unsigned-360 ${path}`);
      expect({ path, status: answer.status, type: answer.headers.get('content-type') }).toEqual({ path, status, type: expect.stringContaining('application/problem+json') });
    }
    await barrier('360dialog');
    expect(queued.messages.filter((m) => String(m.headers['x-request-id']).startsWith('unsigned-360'))).toEqual([]);
  });
});
