import { Headers, Topics, type ContactOptedInEvent, type ContactOptedOutEvent, type EventEnvelope, type MessageOutboundEvent, type WhatsappWebhookEvent } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil, recordedEventExamples, type RecordedEventExample } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ChannelsService } from '../channels/channels.service';
import { CustomerWindowService } from '../messages/customer-window.service';
import { OptOutsStore } from '../opt-outs/opt-outs.store';
import { FakeCloudApi, acceptance, cloudApiErrorBody } from '../test/fake-cloud-api';
import { fakeTwilio, type FakeTwilio } from '../test/fake-twilio';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';
import { VoiceState } from '../voice/voice-state';

/** The tenant and business number the recorded examples (libs/contracts/examples) are about. */
const EXAMPLE_TENANT = 'ten_01JD8Z6W2K3M4N5P6Q7R8S9T0V';
const EXAMPLE_NUMBER = { phone_number: '+14155550100', phone_number_id: '106540352242922' };

/** The example tenant's SMS number and email address (the sms and email examples are about them). */
const EXAMPLE_SMS_NUMBER = '+14155550101';
const EXAMPLE_ADDRESS = 'hello@acme.test';
const EXAMPLE_VOICE_NUMBER = '+14155550102';

/** An SMTP relay stand-in: takes every mail and records its recipients. */
async function fakeSmtp(): Promise<{ url: string; recipients: string[][]; close: () => Promise<void> }> {
  const recipients: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      stream.resume();
      stream.on('end', () => {
        recipients.push(session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, recipients, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The parts of the recorded Cloud API notifications this spec reads. */
interface RecordedNotification {
  entry: { changes: { value: { messages?: { id: string; timestamp: string }[]; statuses?: { id: string; timestamp: string; recipient_id: string }[] } }[] }[];
}

/**
 * Both sides of messaging-service's event contracts on a real broker: it handles the recorded examples of the
 * events it consumes (current and previous schema version), and what it publishes matches the recorded schemas.
 */
describe('messaging-service events match their contracts (real Kafka)', () => {
  let service: MessagingServiceUnderTest;
  let graph: FakeCloudApi;
  let twilio: FakeTwilio;
  let smtp: Awaited<ReturnType<typeof fakeSmtp>>;
  let exampleChannelId: string;
  let d360ChannelId: string;
  let smsChannelId: string;
  let voiceChannelId: string;

  beforeAll(async () => {
    [graph, twilio, smtp] = await Promise.all([FakeCloudApi.start(), fakeTwilio(), fakeSmtp()]);
    service = await startMessagingService('msgcontracts', { SANDBOX_ENABLED: 'false', GRAPH_API_BASE_URL: graph.url, D360_BASE_URL: graph.url, TWILIO_API_BASE_URL: twilio.url });
    const channels = service.app.get(ChannelsService);
    smsChannelId = (await channels.connectSms(EXAMPLE_TENANT, { provider: 'twilio', phone_number: EXAMPLE_SMS_NUMBER, account_sid: `AC${'ab'.repeat(16)}`, auth_token: 'twilio-token' })).id;
    await channels.connectEmail(EXAMPLE_TENANT, { provider: 'smtp', address: EXAMPLE_ADDRESS, smtp_url: smtp.url });
    voiceChannelId = (await channels.connectVoice(EXAMPLE_TENANT, { provider: 'twilio', phone_number: EXAMPLE_VOICE_NUMBER, account_sid: `AC${'cd'.repeat(16)}`, auth_token: 'twilio-voice-token' })).id;
    exampleChannelId = (await channels.connect(EXAMPLE_TENANT, { provider: 'meta', ...EXAMPLE_NUMBER, access_token: 'EAAG-contract-token', agent: 'support' })).id;
    d360ChannelId = (await channels.connect(EXAMPLE_TENANT, { provider: '360dialog', phone_number: '+4930901820', phone_number_id: null, access_token: 'd360-key' })).id;
    // The customers wrote recently, so free-form sends to them are inside WhatsApp's 24-hour window.
    await service.app.get(CustomerWindowService).recordInbound(exampleChannelId, ['+14155550123', '+15550003333', '+15550004444'], new Date().toISOString());
  });

  afterAll(async () => {
    await service?.close();
    await graph?.close();
    await twilio?.close();
    await smtp?.close();
  });

  const publish = (topic: string, key: string, envelope: EventEnvelope) =>
    service.kafka.publisher.publish([{ topic, key, value: envelope, headers: { [Headers.EventType]: envelope.type } }]);
  /** Publishes a text message.outbound of the example tenant (from its default channel unless `choice` names one); its message id. */
  const send = async (to: string, choice: { channel_id?: string } = {}) => {
    const data = { message_id: `msg_${randomBytes(13).toString('hex').slice(0, 26).toUpperCase()}`, channel: 'whatsapp' as const, from: null, ...choice, to, content: { type: 'text' as const, text: 'hi' }, origin: 'api' as const, accepted_at: new Date().toISOString() };
    await publish(Topics.MessageOutbound, `${EXAMPLE_TENANT}:${to}`, EventPublisher.envelope(Topics.MessageOutbound, EXAMPLE_TENANT, data));
    return data.message_id;
  };
  const statusOf = (messageId: string, status: string) => service.statuses.find((m) => m.value.data.message_id === messageId && m.value.data.status === status);

  describe('consumes the recorded examples of message.outbound', () => {
    const examples = recordedEventExamples<MessageOutboundEvent>(Topics.MessageOutbound);

    it.each(examples.map((e) => [`v${e.version}/${e.name}`, e] as const))('%s: sends it and announces sent (a valid message.status)', async (_label, example) => {
      // An agent reply names the conversation's channel: point it at this test's channel, leaving the shape as recorded.
      const voice = example.envelope.data.channel === 'voice';
      const data = example.envelope.data.channel_id ? { ...example.envelope.data, channel_id: voice ? voiceChannelId : exampleChannelId } : example.envelope.data;
      // A voice reply is spoken on the call it answers: the customer is on one, waiting for it.
      const callSid = `CA${randomBytes(16).toString('hex')}`;
      if (voice) await service.app.get(VoiceState).calls.speaking({ callSid, tenantId: EXAMPLE_TENANT, channelId: voiceChannelId, turn: '1' }, EXAMPLE_VOICE_NUMBER, data.to);
      await publish(Topics.MessageOutbound, `${example.envelope.tenant_id}:${data.to}`, { ...example.envelope, data });

      const sent = await pollUntil(() => statusOf(data.message_id, 'sent'), { description: `message.status sent of ${example.name}`, timeoutMs: 20_000 });
      expectMatchesEventSchema(Topics.MessageStatus, sent.value);
      expect(sent.key).toBe(`${EXAMPLE_TENANT}:${data.to}`);
      expect(sent.value.data.channel).toBe(data.channel);
      // Each on its channel's wire: the Cloud API, Twilio's Messages API from the SMS number, SMTP to the customer.
      if (data.channel === 'sms') expect(twilio.forms.filter((f) => f.get('To') === data.to && f.get('From') === EXAMPLE_SMS_NUMBER)).toHaveLength(1);
      else if (data.channel === 'email') expect(smtp.recipients.filter((r) => r.includes(data.to))).toHaveLength(1);
      else if (voice) expect(await service.app.get(VoiceState).replies.waitFor(callSid, '1', 5_000)).toEqual({ text: (data.content as { text: string }).text, handoff: false });
      else expect(graph.sends.filter((s) => s.body.biz_opaque_callback_data === data.message_id)).toHaveLength(1);
    });
  });

  describe('consumes the recorded examples of contact.opted_out and contact.opted_in', () => {
    const optedOut = recordedEventExamples<ContactOptedOutEvent>(Topics.ContactOptedOut)[0].envelope;
    const optedIn = recordedEventExamples<ContactOptedInEvent>(Topics.ContactOptedIn)[0].envelope;
    const stateOf = async () =>
      ((await service.sql.query(`SELECT opted_out, keyword FROM opt_outs WHERE tenant_id = $1 AND customer = $2`, [EXAMPLE_TENANT, optedOut.data.customer])) as { opted_out: boolean; keyword: string }[])[0];

    it('keeps the newest change per customer: STOP, then START, and a late redelivered STOP changes nothing', async () => {
      const optOuts = service.app.get(OptOutsStore);
      await publish(Topics.ContactOptedOut, `${EXAMPLE_TENANT}:${optedOut.data.customer}`, optedOut);
      await pollUntil(async () => (await stateOf())?.opted_out === true, { description: 'the opt-out stored', timeoutMs: 20_000 });
      expect(await optOuts.isOptedOut(EXAMPLE_TENANT, optedOut.data.customer)).toBe(true);
      expect(await optOuts.isOptedOut('ten_01JD8Z6W2K3M4N5P6Q7R8S9T0W', optedOut.data.customer)).toBe(false);

      await publish(Topics.ContactOptedIn, `${EXAMPLE_TENANT}:${optedIn.data.customer}`, optedIn);
      await pollUntil(async () => (await stateOf())?.opted_out === false, { description: 'the opt-in stored', timeoutMs: 20_000 });
      await optOuts.apply([optedOut.data]);
      expect(await stateOf()).toEqual({ opted_out: false, keyword: 'START' });
    });

    it('keeps an SMS keyword as that channel\'s opt-out, leaving the marketing opt-out alone', async () => {
      const sms = recordedEventExamples<ContactOptedOutEvent>(Topics.ContactOptedOut).find((e) => e.envelope.data.channel === 'sms')!.envelope;
      const optOuts = service.app.get(OptOutsStore);
      const before = await stateOf();
      await publish(Topics.ContactOptedOut, `${EXAMPLE_TENANT}:${sms.data.customer}`, sms);
      await pollUntil(() => optOuts.isOptedOutOn(EXAMPLE_TENANT, 'sms', sms.data.customer), { description: 'the SMS opt-out stored', timeoutMs: 20_000 });
      expect(await stateOf()).toEqual(before);
    });
  });

  describe('consumes the recorded examples of whatsapp.webhook', () => {
    const examples = recordedEventExamples<WhatsappWebhookEvent>(Topics.WhatsappWebhook);
    const named = (name: string) => examples.filter((e) => e.name === name).map((e) => [`v${e.version}/${e.name}`, e] as const);
    const notification = (example: RecordedEventExample<WhatsappWebhookEvent>) => JSON.parse(example.envelope.data.raw_body) as RecordedNotification;

    it('has examples of every provider, each with its expected effect below', () => {
      expect(new Set(examples.map((e) => e.envelope.data.provider))).toEqual(new Set(['meta', '360dialog', 'twilio']));
      expect(new Set(examples.map((e) => e.name))).toEqual(new Set(['meta-message', '360dialog-status', 'twilio-sms']));
    });

    it.each(named('twilio-sms'))('%s: a texted message becomes a message.inbound on the SMS channel the gateway verified', async (_label, example) => {
      const form = new URLSearchParams(example.envelope.data.raw_body);
      await publish(Topics.WhatsappWebhook, smsChannelId, { ...example.envelope, data: { ...example.envelope.data, channel_id: smsChannelId } });
      const event = await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === form.get('MessageSid')), { description: 'message.inbound of the SMS', timeoutMs: 20_000 });
      expectMatchesEventSchema(Topics.MessageInbound, event.value);
      expect(event.key).toBe(`${EXAMPLE_TENANT}:${form.get('From')}`);
      expect(event.value.data).toMatchObject({ channel: 'sms', channel_id: smsChannelId, from: form.get('From'), to: EXAMPLE_SMS_NUMBER, type: 'text', text: form.get('Body') });
      expect(service.deadLetters.messages).toEqual([]);
    });

    it.each(named('meta-message'))('%s: a customer message becomes a message.inbound of the number it was written to', async (_label, example) => {
      await publish(Topics.WhatsappWebhook, EXAMPLE_NUMBER.phone_number_id, example.envelope);
      const [message] = notification(example).entry[0].changes[0].value.messages!;

      const event = await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === message.id), { description: 'message.inbound of the example', timeoutMs: 20_000 });
      expectMatchesEventSchema(Topics.MessageInbound, event.value);
      expect(event.key).toBe(`${EXAMPLE_TENANT}:+14155550123`);
      expect(event.value).toMatchObject({
        type: Topics.MessageInbound,
        tenant_id: EXAMPLE_TENANT,
        data: {
          channel: 'whatsapp',
          channel_id: exampleChannelId,
          from: '+14155550123',
          to: EXAMPLE_NUMBER.phone_number,
          type: 'text',
          text: 'When are you open?',
          provider_message_id: message.id,
          sent_at: new Date(Number(message.timestamp) * 1000).toISOString(),
          channel_agent: 'support',
          contact_name: 'Ana Lima',
        },
      });
      expect(service.inbound.messages.filter((m) => m.value.data.provider_message_id === message.id)).toHaveLength(1);
      expect(service.deadLetters.messages).toEqual([]);
    });

    it.each(named('360dialog-status'))('%s: a delivery notification becomes the message.status of the message it names', async (_label, example) => {
      // The message the notification is about: sent on this test's 360dialog channel, the provider answering its wamid.
      const [status] = notification(example).entry[0].changes[0].value.statuses!;
      const to = `+${status.recipient_id}`;
      await service.app.get(CustomerWindowService).recordInbound(d360ChannelId, [to], new Date().toISOString());
      graph.answerNext(to, 200, acceptance(to, status.id));
      const messageId = await send(to, { channel_id: d360ChannelId });
      await pollUntil(() => statusOf(messageId, 'sent'), { description: 'message.status sent', timeoutMs: 20_000 });
      expect(graph.sends.filter((s) => s.body.biz_opaque_callback_data === messageId).map((s) => s.d360ApiKey)).toEqual(['d360-key']);

      // A 360dialog notification is routed by the channel its URL named: this test's 360dialog channel.
      await publish(Topics.WhatsappWebhook, d360ChannelId, { ...example.envelope, data: { ...example.envelope.data, channel_id: d360ChannelId } });

      const delivered = await pollUntil(() => statusOf(messageId, 'delivered'), { description: 'message.status delivered', timeoutMs: 20_000 });
      expectMatchesEventSchema(Topics.MessageStatus, delivered.value);
      expect(delivered.key).toBe(`${EXAMPLE_TENANT}:${to}`);
      expect(delivered.value).toMatchObject({
        type: Topics.MessageStatus,
        tenant_id: EXAMPLE_TENANT,
        data: { event: 'message.status', channel: 'whatsapp', tenant_id: EXAMPLE_TENANT, message_id: messageId, status: 'delivered', to, at: new Date(Number(status.timestamp) * 1000).toISOString() },
      });
      expect(service.deadLetters.messages).toEqual([]);
    });
  });

  describe('publishes message.status matching its schema', () => {
    it('failed, with the provider error', async () => {
      graph.answerNext('+15550003333', 400, cloudApiErrorBody(131026, 'Message undeliverable'));
      const messageId = await send('+15550003333');
      const failed = await pollUntil(() => statusOf(messageId, 'failed'), { description: 'message.status failed', timeoutMs: 20_000 });
      expect(failed.value.data.error).toEqual({ code: '131026', title: expect.any(String) });
      expectMatchesEventSchema(Topics.MessageStatus, failed.value);
    });

    it('delivered, from a provider status notification', async () => {
      const messageId = await send('+15550004444');
      await pollUntil(() => statusOf(messageId, 'sent'), { description: 'message.status sent', timeoutMs: 20_000 });
      const wamid = graph.sends.find((s) => s.body.biz_opaque_callback_data === messageId)!.wamid!;
      const notification = {
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'messages', value: { metadata: { phone_number_id: EXAMPLE_NUMBER.phone_number_id }, statuses: [{ id: wamid, status: 'delivered', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '15550004444' }] } }] }],
      };
      const data = { provider: 'meta' as const, channel_id: null, raw_body: JSON.stringify(notification), received_at: new Date().toISOString() };
      await publish(Topics.WhatsappWebhook, EXAMPLE_NUMBER.phone_number_id, EventPublisher.envelope(Topics.WhatsappWebhook, null, data));
      const delivered = await pollUntil(() => statusOf(messageId, 'delivered'), { description: 'message.status delivered', timeoutMs: 20_000 });
      expectMatchesEventSchema(Topics.MessageStatus, delivered.value);
    });
  });
});
