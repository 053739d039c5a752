import { Headers, Topics, type AgentChangedEvent, type EventEnvelope, type MessageInboundEvent, type MessageReceivedEvent } from '@parley/contracts';
import { expectMatchesEventSchema, pollUntil, recordedEventExamples } from '@parley/testing';
import { BUSINESS, OPEN_EVERY_DAY, ResponderHarness, agentRecord, inboundEvent, phoneNumber, type ResponderOutputs } from '../test/responder-harness';

/**
 * Both sides of responder-service's event contracts on a real broker: it handles the recorded examples of what it
 * consumes (current and previous schema version), and every event it publishes matches its recorded schema.
 */
describe('responder-service events match their contracts (real Kafka)', () => {
  let h: ResponderHarness;
  let out: ResponderOutputs;

  beforeAll(async () => {
    h = await ResponderHarness.start('respcontracts');
    out = await h.probeOutputs();
  });

  afterAll(() => h?.close());

  const publish = (topic: string, key: string, envelope: EventEnvelope) =>
    h.kafka.publisher.publish([{ topic, key, value: envelope, headers: { [Headers.EventType]: envelope.type } }]);
  const receivedFor = (messageId: string) => out.received.find((m) => m.value.data.message_id === messageId);

  describe('consumes the recorded examples', () => {
    const agentChanges = recordedEventExamples<AgentChangedEvent>(Topics.AgentChanged);

    it('agent.changed: every recorded change (an agent with FAQs and booking, one without, a deletion) reaches the read model', async () => {
      expect(agentChanges.some((e) => e.envelope.data.agent === null)).toBe(true);
      // Oldest first, as agent-service would have published them.
      const inOrder = [...agentChanges].sort((a, b) => a.envelope.occurred_at.localeCompare(b.envelope.occurred_at));
      for (const { envelope } of inOrder) await publish(Topics.AgentChanged, `${envelope.data.tenant_id}:${envelope.data.name}`, envelope);

      const last = new Map(inOrder.map((e) => [`${e.envelope.data.tenant_id}:${e.envelope.data.name}`, e.envelope.data]));
      for (const data of last.values()) {
        await pollUntil(
          async () => {
            const rows: { version: number; deleted: boolean }[] = await h.sql.query(
              'SELECT version, deleted_at IS NOT NULL AS deleted FROM agents WHERE tenant_id = $1 AND name = $2 AND agent_id = $3',
              [data.tenant_id, data.name, data.agent_id],
            );
            return rows.length === 1 && rows[0].version === data.version && rows[0].deleted === (data.agent === null);
          },
          { description: `agent ${data.name} v${data.version}${data.agent ? '' : ' (deleted)'} in the read model` },
        );
      }
    });

    it.each(recordedEventExamples<MessageInboundEvent>(Topics.MessageInbound).map((e) => [`v${e.version}/${e.name}`, e] as const))(
      'message.inbound %s: reported on message.received, and answered when an agent can',
      async (_label, example) => {
        // Recorded long ago: move its times to now, or the 24-hour rule would (rightly) keep the agent silent.
        const now = new Date().toISOString();
        const envelope = { ...example.envelope, occurred_at: now, data: { ...example.envelope.data, sent_at: now, received_at: now } };
        await publish(Topics.MessageInbound, `${envelope.tenant_id}:${envelope.data.from}`, envelope);

        const report = await pollUntil(() => receivedFor(envelope.data.message_id), { description: `message.received of ${example.name}` });
        expectMatchesEventSchema(Topics.MessageReceived, report.value);
        expect(report.value.data).toMatchObject({ from: envelope.data.from, message: envelope.data.text, type: envelope.data.type });
        if (report.value.data.reply_message_id) {
          const reply = await pollUntil(() => out.outbound.find((m) => m.value.data.message_id === report.value.data.reply_message_id), { description: 'the reply' });
          expectMatchesEventSchema(Topics.MessageOutbound, reply.value);
          expect(reply.value.data).toMatchObject({ origin: 'agent', to: envelope.data.from, channel_id: envelope.data.channel_id, in_reply_to: [envelope.data.message_id] });
        }
      },
    );

    it('answers the recorded FAQ question with the recorded agent (the examples fit together)', async () => {
      const [question] = recordedEventExamples<MessageInboundEvent>(Topics.MessageInbound).filter((e) => e.envelope.data.channel_agent === 'support');
      const report = await pollUntil(() => receivedFor(question.envelope.data.message_id), { description: 'message.received of the FAQ question' });
      expect(report.value.data.agent).toBe('support');
      expect(report.value.data.agent_response).toContain('We are open Monday to Friday, 9:00 to 17:00.');
    });
  });

  describe('publishes events matching their schemas', () => {
    async function say(tenant: string, customer: string, text: string): Promise<MessageReceivedEvent> {
      const event = inboundEvent(tenant, { from: customer, to: BUSINESS, text });
      await h.deliverInbound(event);
      return (await pollUntil(() => receivedFor(event.data.message_id), { description: `message.received of "${text}"` })).value;
    }

    it('message.received and message.outbound of an answered message', async () => {
      await h.announceAgent('ten_contract_faq', agentRecord('bakery', { faqs: [{ question: 'Do you deliver?', answer: 'Yes, within 10 km.' }] }));
      const report = await say('ten_contract_faq', phoneNumber(), 'do you deliver?');
      expectMatchesEventSchema(Topics.MessageReceived, report);
      const reply = await pollUntil(() => out.outbound.find((m) => m.value.data.message_id === report.data.reply_message_id), { description: 'the reply' });
      expectMatchesEventSchema(Topics.MessageOutbound, reply.value);
    });

    it('message.received of a message no agent answers', async () => {
      const report = await say('ten_contract_nobody', phoneNumber(), 'hello?');
      expect(report.data.agent_response).toBeNull();
      expectMatchesEventSchema(Topics.MessageReceived, report);
    });

    it('lead.captured', async () => {
      const tenant = 'ten_contract_lead';
      const customer = phoneNumber();
      await h.announceAgent(tenant, agentRecord('sales', { skills: ['lead_capture'] }));
      await say(tenant, customer, "hi, I'm Maria Lopez and I'm interested in a catering quote for 40 ppl");
      await say(tenant, customer, 'maria.lopez@gmail.com');
      const captured = await pollUntil(() => out.leads.find((m) => m.value.tenant_id === tenant), { description: 'lead.captured' });
      expectMatchesEventSchema(Topics.LeadCaptured, captured.value);
    });

    it('appointment.booked', async () => {
      const tenant = 'ten_contract_book';
      const customer = phoneNumber();
      await h.announceAgent(tenant, agentRecord('clinic', { skills: ['appointment_booking'], booking: { timezone: 'UTC', slot_minutes: 30, opening_hours: OPEN_EVERY_DAY } }));
      await say(tenant, customer, 'can i come in tmrw at 10am?');
      await say(tenant, customer, 'yes');
      const appointment = await pollUntil(() => out.booked.find((m) => m.value.tenant_id === tenant), { description: 'appointment.booked' });
      expectMatchesEventSchema(Topics.AppointmentBooked, appointment.value);
    });

    it('conversation.handoff', async () => {
      const tenant = 'ten_contract_handoff';
      await h.announceAgent(tenant, agentRecord('bakery'));
      await say(tenant, phoneNumber(), 'let me talk to a human');
      const handoff = await pollUntil(() => out.handoffs.find((m) => m.value.tenant_id === tenant), { description: 'conversation.handoff' });
      expectMatchesEventSchema(Topics.ConversationHandoff, handoff.value);
    });
  });
});
