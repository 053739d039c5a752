import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { RpcRequest, TwilioVoiceWebhook, TwilioVoiceWebhookResult } from '@parley/contracts';
import { EventPublisher, KafkaConnection, KafkaTransport, RpcPassThroughFilter } from '@parley/kafka';
import { testInfra } from '@parley/testing';
import { GatewayTestApp } from '../test/gateway-test-app';

/** What the stand-in of messaging-service was asked; it takes the signature `good` as valid. */
const asked: TwilioVoiceWebhook[] = [];

@Controller()
class MessagingStandIn {
  @MessagePattern('channels.voice-webhook')
  answer(@Payload() req: RpcRequest<'channels.voice-webhook'>): TwilioVoiceWebhookResult {
    asked.push(req);
    return req.signature === 'good' ? { valid: true, twiml: `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${req.route}</Say></Response>` } : { valid: false };
  }
}
@Module({ controllers: [MessagingStandIn] })
class MessagingStandInModule {}

/**
 * The gateway's Twilio Voice webhooks (CONTRACT.md §17): forwarded over request-reply with the URLs Twilio may have
 * signed, answered with messaging-service's TwiML as text/xml, refused with 401 when it finds the signature invalid.
 */
describe('gateway: Twilio Voice webhooks (real Kafka)', () => {
  let gw: GatewayTestApp;
  let connection: KafkaConnection;
  let publisher: EventPublisher;
  let messaging: INestMicroservice;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwvoice');
    connection = new KafkaConnection({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'messaging-stand-in', namespace: gw.config.KAFKA_TOPIC_PREFIX });
    publisher = new EventPublisher(connection);
    messaging = await NestFactory.createMicroservice(MessagingStandInModule, { strategy: new KafkaTransport(connection, publisher), logger: ['error'] });
    messaging.useGlobalFilters(new RpcPassThroughFilter());
    await messaging.listen();
  });

  afterAll(async () => {
    await messaging?.close();
    await publisher?.onApplicationShutdown();
    await connection?.onApplicationShutdown();
    await gw?.close();
  });

  const form = new URLSearchParams({ CallSid: `CA${'1'.repeat(32)}`, From: '+14155550123', To: '+14155550102', CallStatus: 'in-progress', SpeechResult: 'Hi' }).toString();
  const post = (path: string, signature?: string) =>
    gw.request<string>('POST', path, { rawBody: form, headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) } });

  it('answers each voice route with the TwiML messaging-service makes, as text/xml, naming the route, turn and signed URL', async () => {
    const call = await post('/webhooks/twilio/voice?turn=2', 'good');
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toContain('text/xml');
    expect(call.body).toContain('<Say>call</Say>');
    expect(asked.at(-1)).toMatchObject({ route: 'call', turn: '2', attempt: null, raw_body: form, signature: 'good' });
    expect(asked.at(-1)!.urls.some((u) => u.endsWith('/webhooks/twilio/voice?turn=2'))).toBe(true);

    expect((await post('/webhooks/twilio/voice/reply?turn=3&attempt=2', 'good')).body).toContain('<Say>reply</Say>');
    expect(asked.at(-1)).toMatchObject({ route: 'reply', turn: '3', attempt: '2' });
    expect((await post('/webhooks/twilio/voice/status', 'good')).body).toContain('<Say>status</Say>');
    expect(asked.at(-1)).toMatchObject({ route: 'status', turn: null });
    // A turn that is not a number is not passed on.
    await post('/webhooks/twilio/voice?turn=1%3Bdrop', 'good');
    expect(asked.at(-1)).toMatchObject({ route: 'call', turn: null });
  });

  it('refuses a forged signature with 401 problem+json, and a missing one before asking messaging-service', async () => {
    const forged = await post('/webhooks/twilio/voice', 'forged');
    expect(forged.status).toBe(401);
    expect(forged.headers.get('content-type')).toContain('application/problem+json');
    const before = asked.length;
    const unsigned = await post('/webhooks/twilio/voice');
    expect(unsigned.status).toBe(401);
    expect(asked).toHaveLength(before);
  });
});
