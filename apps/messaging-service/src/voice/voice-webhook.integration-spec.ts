import { Headers, Topics, newId, type ConversationHandoffData, type EventEnvelope, type TwilioVoiceWebhook, type VoiceCallEndedEvent } from '@parley/contracts';
import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { ChannelsService } from '../channels/channels.service';
import { twilioSignature } from '../providers/twilio-signature';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';
import { VoiceWebhookService } from './voice-webhook.service';

const TENANT = 'ten_01JD8Z6W2K3M4N5P6Q7R8S9V01';
const VOICE_NUMBER = '+15550107000';
const FORWARD_TO = '+15550107999';
const GATEWAY = 'https://gateway.example';

/**
 * The voice channel's webhook answers over real Kafka, PostgreSQL and Redis (CONTRACT.md §17): what the gateway hands
 * over (its signature check included) and the TwiML it gets back, with the agent's side played by publishing the
 * replies the responder would.
 */
describe('voice webhooks (real Kafka, PostgreSQL and Redis)', () => {
  let service: MessagingServiceUnderTest;
  let ended: TopicProbe<VoiceCallEndedEvent>;
  let channelId: string;
  let token: string;

  beforeAll(async () => {
    service = await startMessagingService('voice');
    ended = await service.kafka.probe<VoiceCallEndedEvent>(Topics.VoiceCallEnded);
    channelId = (await service.app.get(ChannelsService).connectVoice(TENANT, { provider: 'sandbox', phone_number: VOICE_NUMBER, forward_to: FORWARD_TO, greeting: 'Welcome to Acme.' })).id;
    token = service.config.SANDBOX_TWILIO_AUTH_TOKEN;
  });

  afterAll(async () => {
    await ended?.stop();
    await service?.close();
  });

  /** A Twilio Voice webhook as the gateway forwards it: `path` called, the form signed with `authToken`. */
  function webhook(route: TwilioVoiceWebhook['route'], path: string, params: Record<string, string>, authToken = token): Promise<{ valid: boolean; twiml?: string }> {
    const url = `${GATEWAY}${path}`;
    const query = new URL(url).searchParams;
    return service.app.get(VoiceWebhookService).handle({
      route,
      turn: query.get('turn'),
      attempt: query.get('attempt'),
      urls: ['http://127.0.0.1:1/elsewhere', url],
      raw_body: new URLSearchParams(params).toString(),
      signature: twilioSignature(authToken, url, params),
    });
  }
  const callParams = (callSid: string, caller: string) => ({ CallSid: callSid, AccountSid: service.config.SANDBOX_TWILIO_ACCOUNT_SID, From: caller, To: VOICE_NUMBER, Direction: 'inbound' });
  const newCall = () => ({ sid: `CA${randomBytes(16).toString('hex')}`, caller: `+1555010${String(7100 + Math.floor(Math.random() * 800))}` });
  const publish = (topic: string, key: string, envelope: EventEnvelope) => service.kafka.publisher.publish([{ topic, key, value: envelope, headers: { [Headers.EventType]: envelope.type } }]);
  /** The agent's reply to the caller, as responder-service publishes it. */
  const agentReplies = async (caller: string, text: string) => {
    const data = { message_id: newId('msg'), channel: 'voice' as const, channel_id: channelId, from: VOICE_NUMBER, to: caller, content: { type: 'text' as const, text }, origin: 'agent' as const, accepted_at: new Date().toISOString() };
    await publish(Topics.MessageOutbound, `${TENANT}:${caller}`, EventPublisher.envelope(Topics.MessageOutbound, TENANT, data));
    return data.message_id;
  };

  it('refuses a webhook not signed with the number’s auth token, or for a number nobody connected', async () => {
    const { sid, caller } = newCall();
    await expect(webhook('call', '/webhooks/twilio/voice', { ...callParams(sid, caller), CallStatus: 'ringing' }, 'a-forged-token')).resolves.toEqual({ valid: false });
    await expect(webhook('call', '/webhooks/twilio/voice', { ...callParams(sid, caller), To: '+15550107001', CallStatus: 'ringing' })).resolves.toEqual({ valid: false });
  });

  it('greets, turns speech into one inbound message, answers within the budget with a filler, then speaks the agent’s reply', async () => {
    const { sid, caller } = newCall();
    const greeted = await webhook('call', '/webhooks/twilio/voice', { ...callParams(sid, caller), CallStatus: 'ringing' });
    expect(greeted.twiml).toContain('<Say language="en-US">Welcome to Acme.</Say>');
    expect(greeted.twiml).toMatch(/<Gather input="speech" action="\/webhooks\/twilio\/voice\?turn=1"/);

    // Nobody answers within the wait: the caller hears a filler inside the 1.5 s budget and is redirected to wait again.
    const speech = { ...callParams(sid, caller), CallStatus: 'in-progress', SpeechResult: 'Do you deliver on Sundays?', Confidence: '0.9' };
    const started = Date.now();
    const first = await webhook('call', '/webhooks/twilio/voice?turn=1', speech);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(first.twiml).toContain('One moment, please.');
    expect(first.twiml).toContain('<Redirect method="POST">/webhooks/twilio/voice/reply?turn=1&amp;attempt=1</Redirect>');
    const inbound = await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === `${sid}:1`), { description: 'message.inbound of the utterance', timeoutMs: 20_000 });
    expect(inbound.value.data).toMatchObject({ channel: 'voice', channel_id: channelId, from: caller, to: VOICE_NUMBER, type: 'text', text: 'Do you deliver on Sundays?' });
    expectMatchesEventSchema(Topics.MessageInbound, inbound.value);

    // Twilio repeating the speech request stores and announces nothing new.
    await webhook('call', '/webhooks/twilio/voice?turn=1', speech);
    const replyId = await agentReplies(caller, 'Yes, from ten to four.');
    const spoken = await pollUntil(async () => {
      const answer = await webhook('reply', '/webhooks/twilio/voice/reply?turn=1&attempt=1', { ...callParams(sid, caller), CallStatus: 'in-progress' });
      return answer.twiml?.includes('Yes, from ten to four.') && answer.twiml;
    }, { description: 'the reply spoken on a redirect', timeoutMs: 20_000 });
    expect(spoken).toMatch(/<Gather input="speech" action="\/webhooks\/twilio\/voice\?turn=2"/);
    await pollUntil(() => service.statuses.find((m) => m.value.data.message_id === replyId && m.value.data.status === 'sent'), { description: 'the reply sent', timeoutMs: 20_000 });
    expect(service.inbound.messages.filter((m) => m.value.data.provider_message_id.startsWith(sid))).toHaveLength(1);
  });

  it('dials forward_to once the conversation is handed to a person', async () => {
    const { sid, caller } = newCall();
    await webhook('call', '/webhooks/twilio/voice', { ...callParams(sid, caller), CallStatus: 'ringing' });
    await webhook('call', '/webhooks/twilio/voice?turn=1', { ...callParams(sid, caller), CallStatus: 'in-progress', SpeechResult: 'I want to talk to a person' });
    const handoff: ConversationHandoffData = { event: 'conversation.handoff', tenant_id: TENANT, channel: 'whatsapp', conversation_id: newId('cnv'), customer: caller, agent: 'support', reason: 'customer_asked_for_human', at: new Date().toISOString() };
    await publish(Topics.ConversationHandoff, `${TENANT}:${caller}`, EventPublisher.envelope(Topics.ConversationHandoff, TENANT, handoff));
    const dialled = await pollUntil(async () => {
      const answer = await webhook('reply', '/webhooks/twilio/voice/reply?turn=1&attempt=1', { ...callParams(sid, caller), CallStatus: 'in-progress' });
      return answer.twiml?.includes('<Dial>') && answer.twiml;
    }, { description: 'the call forwarded', timeoutMs: 20_000 });
    expect(dialled).toContain(`<Dial>${FORWARD_TO}</Dial>`);
  });

  it('announces an ended call’s minutes once, and a reply after the hang-up fails instead of being spoken', async () => {
    const { sid, caller } = newCall();
    await webhook('call', '/webhooks/twilio/voice', { ...callParams(sid, caller), CallStatus: 'ringing' });
    await webhook('call', '/webhooks/twilio/voice?turn=1', { ...callParams(sid, caller), CallStatus: 'in-progress', SpeechResult: 'Bye for now' });
    const status = { ...callParams(sid, caller), CallStatus: 'completed', CallDuration: '75' };
    const hungUp = await webhook('status', '/webhooks/twilio/voice/status', status);
    expect(hungUp).toEqual({ valid: true, twiml: expect.stringContaining('<Hangup/>') });
    await webhook('status', '/webhooks/twilio/voice/status', status);
    const event = await pollUntil(() => ended.find((m) => m.value.data.call_sid === sid), { description: 'voice.call_ended', timeoutMs: 20_000 });
    expect(event.key).toBe(`${TENANT}:${sid}`);
    expect(event.value.data).toMatchObject({ tenant_id: TENANT, channel_id: channelId, from: caller, to: VOICE_NUMBER, status: 'completed', duration_seconds: 75, billable_minutes: 2 });
    expectMatchesEventSchema(Topics.VoiceCallEnded, event.value);
    // Both callbacks announce the same event (one id): billing meters the call once.
    await pollUntil(() => ended.messages.filter((m) => m.value.data.call_sid === sid).length === 2, { description: 'the repeated callback announced', timeoutMs: 20_000 });
    expect(new Set(ended.messages.filter((m) => m.value.data.call_sid === sid).map((m) => m.value.id)).size).toBe(1);

    const late = await agentReplies(caller, 'Goodbye!');
    const failed = await pollUntil(() => service.statuses.find((m) => m.value.data.message_id === late && m.value.data.status === 'failed'), { description: 'the late reply failed', timeoutMs: 20_000 });
    expect(failed.value.data.error).toMatchObject({ code: 'call_ended' });
  });
});
