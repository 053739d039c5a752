import { Headers, Topics, newId, type ContactOptedInEvent, type ContactOptedOutEvent, type EventEnvelope } from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { ChannelsService } from '../channels/channels.service';
import { fakeTwilio, type FakeTwilio } from '../test/fake-twilio';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';

const TENANT = 'ten_01JD8Z6W2K3M4N5P6Q7R8S9SMS';
const SMS_NUMBER = '+15550109000';
const CUSTOMER = '+15550109123';

/** Carrier keywords on a sandbox SMS number, over real Kafka and PostgreSQL: STOP, HELP and START (CONTRACT.md §17). */
describe('SMS STOP, START and HELP (real Kafka)', () => {
  let service: MessagingServiceUnderTest;
  let twilio: FakeTwilio;
  let optedOut: TopicProbe<ContactOptedOutEvent>;
  let optedIn: TopicProbe<ContactOptedInEvent>;
  let channelId: string;

  beforeAll(async () => {
    twilio = await fakeTwilio();
    service = await startMessagingService('smsstop', { SANDBOX_URL: twilio.url });
    [optedOut, optedIn] = await Promise.all([service.kafka.probe<ContactOptedOutEvent>(Topics.ContactOptedOut), service.kafka.probe<ContactOptedInEvent>(Topics.ContactOptedIn)]);
    channelId = (await service.app.get(ChannelsService).connectSms(TENANT, { provider: 'sandbox', phone_number: SMS_NUMBER })).id;
  });

  afterAll(async () => {
    await optedOut?.stop();
    await optedIn?.stop();
    await service?.close();
    await twilio?.close();
  });

  const publish = (topic: string, key: string, envelope: EventEnvelope) =>
    service.kafka.publisher.publish([{ topic, key, value: envelope, headers: { [Headers.EventType]: envelope.type } }]);
  /** The customer texts `body` to the SMS number (the gateway verified the signature); the same sid redelivers it. */
  const text = async (body: string, sid = `SM${randomBytes(16).toString('hex')}`) => {
    const raw = new URLSearchParams({ MessageSid: sid, AccountSid: `AC${'0'.repeat(32)}`, From: CUSTOMER, To: SMS_NUMBER, Body: body, NumMedia: '0' }).toString();
    await publish(Topics.WhatsappWebhook, channelId, EventPublisher.envelope(Topics.WhatsappWebhook, null, { provider: 'twilio', channel_id: channelId, raw_body: raw, received_at: new Date().toISOString() }));
    return sid;
  };
  /** An API send of `body` to the customer on SMS; its message id. */
  const send = async (body: string) => {
    const data = { message_id: newId('msg'), channel: 'sms' as const, from: null, to: CUSTOMER, content: { type: 'text' as const, text: body }, origin: 'api' as const, accepted_at: new Date().toISOString() };
    await publish(Topics.MessageOutbound, `${TENANT}:${CUSTOMER}`, EventPublisher.envelope(Topics.MessageOutbound, TENANT, data));
    return data.message_id;
  };
  const texted = (needle: string) => twilio.forms.filter((f) => f.get('To') === CUSTOMER && f.get('Body')?.includes(needle));
  const statusOf = (messageId: string) => pollUntil(() => service.statuses.find((m) => m.value.data.message_id === messageId)?.value.data, { description: `status of ${messageId}`, timeoutMs: 20_000 });

  it('STOP opts the number out of SMS, is confirmed once, never reaches the agent, and refuses later sends', async () => {
    const stopSid = await text('Stop');
    const event = await pollUntil(() => optedOut.find((m) => m.value.data.customer === CUSTOMER), { description: 'contact.opted_out', timeoutMs: 20_000 });
    expect(event.value.data).toMatchObject({ event: 'contact.opted_out', tenant_id: TENANT, channel: 'sms', customer: CUSTOMER, keyword: 'STOP' });
    expectMatchesEventSchema(Topics.ContactOptedOut, event.value);
    await pollUntil(() => texted('unsubscribed').length === 1, { description: 'the STOP confirmation' });

    // A redelivered STOP changes nothing and is not confirmed again; HELP (behind it on the partition) is answered.
    await text('Stop', stopSid);
    await text('help');
    await pollUntil(() => texted('Reply STOP to unsubscribe, START to resubscribe').length === 1, { description: 'the HELP answer' });
    expect(texted('unsubscribed')).toHaveLength(1);

    const refused = await send('Our sale starts today');
    expect(await statusOf(refused)).toMatchObject({ status: 'failed', error: { code: 'opted_out' } });
    expect(texted('Our sale starts today')).toHaveLength(0);

    // A message that only mentions stopping is the agent's: keywords are whole messages.
    const chat = await text('please stop the sale texts?');
    await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === chat), { description: 'message.inbound of the chat', timeoutMs: 20_000 });
    expect(service.inbound.find((m) => m.value.data.provider_message_id === stopSid)).toBeUndefined();
  });

  it('START opts back in, is confirmed, and sends go out again', async () => {
    await text('UNSTOP');
    const event = await pollUntil(() => optedIn.find((m) => m.value.data.customer === CUSTOMER), { description: 'contact.opted_in', timeoutMs: 20_000 });
    expect(event.value.data).toMatchObject({ channel: 'sms', keyword: 'UNSTOP' });
    expectMatchesEventSchema(Topics.ContactOptedIn, event.value);
    await pollUntil(() => texted('subscribed again').length === 1, { description: 'the START confirmation' });

    const sent = await send('Welcome back');
    expect(await statusOf(sent)).toMatchObject({ status: 'sent' });
    expect(texted('Welcome back')).toHaveLength(1);
  });
});
