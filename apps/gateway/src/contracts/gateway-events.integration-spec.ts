import { Topics, type MessageOutboundEvent, type WhatsappWebhookEvent } from '@parley/contracts';
import type { TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { GatewayTestApp, TEST_META_APP_SECRET, metaSignature, type CreatedAccount } from '../test/gateway-test-app';

/** Producer side of the event contracts: what the gateway publishes matches the recorded schemas (libs/contracts/schemas). */
describe('gateway events match their contracts (real Kafka)', () => {
  let gw: GatewayTestApp;
  let account: CreatedAccount;
  let outbound: TopicProbe<MessageOutboundEvent>;
  let webhooks: TopicProbe<WhatsappWebhookEvent>;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwcontracts');
    outbound = await gw.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound);
    webhooks = await gw.kafka.probe<WhatsappWebhookEvent>(Topics.WhatsappWebhook);
    account = await gw.signUp();
  });

  afterAll(async () => {
    await outbound?.stop();
    await webhooks?.stop();
    await gw?.close();
  });

  it.each([
    ['a text', { message: 'Your order is ready.' }],
  ])('message.outbound of %s send', async (_label, content) => {
    const answer = await gw.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+14155550123', ...content } });
    expect(answer.status).toBe(200);
    const published = await pollUntil(() => outbound.find((m) => m.value.data.message_id === answer.body.message_id), { description: 'message.outbound' });
    expectMatchesEventSchema(Topics.MessageOutbound, published.value);
    expect(published.headers['event-type']).toBe(Topics.MessageOutbound);
  });

  it('whatsapp.webhook of a Cloud API notification', async () => {
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { metadata: { phone_number_id: '106540352242922' }, messages: [] } }] }],
    });
    const answer = await gw.request('POST', '/webhooks/whatsapp', {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, TEST_META_APP_SECRET), 'x-request-id': 'req-contract-meta' },
    });
    expect(answer.status).toBe(200);
    const queued = await pollUntil(() => webhooks.find((m) => m.headers['x-request-id'] === 'req-contract-meta'), { description: 'whatsapp.webhook' });
    expectMatchesEventSchema(Topics.WhatsappWebhook, queued.value);
  });

  it('the check itself rejects an envelope that drifted from the contract', async () => {
    const answer = await gw.request('POST', '/v1/send', { token: account.api_key, body: { channel: 'whatsapp', to: '+14155550124', message: 'hi' } });
    const published = await pollUntil(() => outbound.find((m) => m.value.data.message_id === answer.body.message_id), { description: 'message.outbound' });
    const { to: _to, ...withoutRecipient } = published.value.data;
    expect(() => expectMatchesEventSchema(Topics.MessageOutbound, { ...published.value, data: withoutRecipient })).toThrow(/must have required property 'to'/);
  });
});
