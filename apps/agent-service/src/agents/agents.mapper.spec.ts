import type { UpsertAgentBody } from '@parley/contracts';
import type { AgentEntity, AgentVersionEntity } from './agent.entity';
import { agentBody, sameBody, toVersionRecord, toVersionSummary, withFaqs } from './agents.mapper';

const body: UpsertAgentBody = {
  name: 'support',
  instruction: 'Answer questions.',
  greeting: 'Hi!',
  skills: ['faq_responder', 'lead_capture'],
  faqs: [{ question: 'Open Sunday?', answer: 'No.' }],
};

describe('agents.mapper', () => {
  it('clears omitted optional parts (PUT replaces) and compares skills as a set', () => {
    const stored = agentBody(body);
    expect(stored).toEqual({ ...body, booking: null });
    const entity = { ...stored, skills: ['lead_capture', 'faq_responder'] } as unknown as AgentEntity;
    expect(sameBody(entity, stored)).toBe(true);
    expect(sameBody(entity, { ...stored, faqs: [] })).toBe(false);
  });

  it('returns a kept version as a body that a PUT accepts as is (rollback)', () => {
    const version = { agentId: 'agt_X', version: 2, body: { ...agentBody(body) }, createdAt: new Date('2026-01-01T00:00:00Z') } as AgentVersionEntity;
    expect(toVersionSummary(version)).toEqual({ version: 2, created_at: '2026-01-01T00:00:00.000Z' });
    expect(toVersionRecord(version)).toEqual({ version: 2, created_at: '2026-01-01T00:00:00.000Z', body: { ...body, booking: null } });
  });

  it('adds a gap\'s FAQs: a question it has already takes the new answer, the rest are appended, faq_responder is added', () => {
    const entity = { ...agentBody(body), skills: ['lead_capture'] } as unknown as AgentEntity;
    const amended = withFaqs(entity, [
      { question: 'open sunday', answer: 'Yes, 10:00 to 14:00.' },
      { question: 'Where can I park?', answer: 'Behind the shop.' },
    ]);
    expect(amended.faqs).toEqual([
      { question: 'Open Sunday?', answer: 'Yes, 10:00 to 14:00.' },
      { question: 'Where can I park?', answer: 'Behind the shop.' },
    ]);
    expect(amended.skills).toEqual(['lead_capture', 'faq_responder']);
    // the same FAQs again change nothing (a retried answer is no new version)
    const again = withFaqs({ ...entity, ...amended } as unknown as AgentEntity, [{ question: 'Where can I park?', answer: 'Behind the shop.' }]);
    expect(sameBody({ ...entity, ...amended } as unknown as AgentEntity, again)).toBe(true);
  });
});
