import { Topics } from '@parley/contracts';
import { expectMatchesEventSchema, pollUntil } from '@parley/testing';
import { startAgentService, type AgentServiceUnderTest } from '../test/agent-service-harness';

/** Producer side of the event contracts: agent.changed as agent-service publishes it matches the recorded schema. */
describe('agent-service events match their contracts (real Kafka)', () => {
  let service: AgentServiceUnderTest;

  beforeAll(async () => {
    service = await startAgentService('agentcontracts');
  });

  afterAll(() => service?.close());

  it('agent.changed of a full agent (FAQs, booking) and of its deletion', async () => {
    const { agent } = await service.kafka.rpc.request('agents.upsert', {
      tenant_id: 'ten_01JD8Z6W2K3M4N5P6Q7R8S9T0V',
      name: 'support',
      body: {
        name: 'support',
        instruction: 'Answer questions about opening hours.',
        greeting: 'Hi!',
        skills: ['faq_responder', 'appointment_booking'],
        faqs: [{ question: 'When are you open?', answer: 'Monday to Friday, 9 to 5.' }],
        booking: { timezone: 'Europe/Lisbon', slot_minutes: 30, opening_hours: { mon: [['09:00', '12:00']] } },
      },
    });
    const upserted = await pollUntil(() => service.changes.find((m) => m.value.data.agent?.id === agent.id), { description: 'agent.changed (upsert)' });
    expectMatchesEventSchema(Topics.AgentChanged, upserted.value);

    await service.kafka.rpc.request('agents.delete', { tenant_id: 'ten_01JD8Z6W2K3M4N5P6Q7R8S9T0V', name: 'support' });
    const deleted = await pollUntil(() => service.changes.find((m) => m.value.data.agent_id === agent.id && m.value.data.agent === null), { description: 'agent.changed (deletion)' });
    expectMatchesEventSchema(Topics.AgentChanged, deleted.value);
  });
});
