import { Headers, Topics, type EventEnvelope } from '@parley/contracts';
import { pollUntil, recordedEventExamples } from '@parley/testing';
import { Webhook } from 'standardwebhooks';
import { Receiver } from '../test/receiver';
import { startWebhookService, type WebhookServiceUnderTest } from '../test/webhook-service-under-test';

/** The public events webhook-service consumes, each delivered to tenants' endpoints. */
const CONSUMED = [
  Topics.MessageReceived,
  Topics.MessageStatus,
  Topics.LeadCaptured,
  Topics.LeadUpdated,
  Topics.AppointmentBooked,
  Topics.AppointmentRescheduled,
  Topics.AppointmentCancelled,
  Topics.ConversationHandoff,
  Topics.ContactOptedOut,
  Topics.ContactOptedIn,
  Topics.TemplateStatus,
  Topics.WalletLowBalance,
  Topics.ContactCreated,
  Topics.ContactUpdated,
  Topics.ContactDeleted,
  Topics.CampaignCompleted,
];

/**
 * Consumer side of the event contracts on a real broker: webhook-service delivers the recorded examples of every
 * event it consumes (current and previous schema version), signed, with the event body as recorded.
 */
describe('webhook-service consumes the recorded event examples (real Kafka)', () => {
  let service: WebhookServiceUnderTest;
  let receiver: Receiver;
  let secret: string;
  const examples = CONSUMED.flatMap((topic) => recordedEventExamples<EventEnvelope & { tenant_id: string }>(topic));

  beforeAll(async () => {
    service = await startWebhookService('whkcontracts');
    receiver = await Receiver.start();
    // Every example is about the same tenant: one endpoint subscribed to every event type receives them all.
    const tenants = new Set(examples.map((e) => e.envelope.tenant_id));
    expect(tenants.size).toBe(1);
    const endpoint = await service.kafka.rpc.request('webhooks.create', { tenant_id: [...tenants][0], body: { url: receiver.url } });
    secret = endpoint.secret;
  });

  afterAll(async () => {
    await receiver?.close();
    await service?.close();
  });

  it('has examples of every consumed event', () => {
    expect(new Set(examples.map((e) => e.topic))).toEqual(new Set(CONSUMED));
  });

  it.each(examples.map((e) => [`${e.topic} v${e.version}/${e.name}`, e] as const))('%s: delivered, signed, with the body as recorded', async (_label, example) => {
    const { envelope } = example;
    await service.kafka.publisher.publish([{ topic: example.topic, key: `${envelope.tenant_id}:customer`, value: envelope, headers: { [Headers.EventType]: envelope.type } }]);
    const [request] = await pollUntil(() => (receiver.withId(envelope.id).length ? receiver.withId(envelope.id) : undefined), {
      description: `delivery of ${example.name}`,
      timeoutMs: 20_000,
    });
    // a deleted contact is announced by id only: its number and email are what the deletion erases (CONTRACT.md §9)
    const expected = example.topic === Topics.ContactDeleted ? { ...(envelope.data as object), phone: null, email: null } : envelope.data;
    expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(expected);
  });
});
