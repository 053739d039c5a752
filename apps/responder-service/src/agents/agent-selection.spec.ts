import type { AgentRecord } from '@parley/contracts';
import { selectAgent } from './agent-selection';

function agent(name: string, id: string, createdAt: string): AgentRecord {
  return { id, name, instruction: 'i', greeting: '', skills: [], faqs: [], booking: null, version: 1, created_at: createdAt, updated_at: createdAt };
}

describe('selectAgent', () => {
  const oldest = agent('support', 'agt_01A', '2025-01-01T00:00:00.000Z');
  const newer = agent('sales', 'agt_01B', '2025-02-01T00:00:00.000Z');

  it("picks the channel's agent over the oldest one", () => {
    expect(selectAgent('sales', [oldest, newer])).toBe(newer);
  });

  it("falls back to the tenant's oldest agent when the channel names none", () => {
    expect(selectAgent(null, [newer, oldest])).toBe(oldest);
  });

  it("falls back to the oldest agent when the channel's agent does not exist (any more)", () => {
    expect(selectAgent('gone', [newer, oldest])).toBe(oldest);
  });

  it('breaks a tie on the creation time by the time-ordered id', () => {
    const twin = agent('twin', 'agt_01C', oldest.created_at);
    expect(selectAgent(null, [twin, oldest])).toBe(oldest);
  });

  it('answers none when the tenant has no agent', () => {
    expect(selectAgent('sales', [])).toBeNull();
    expect(selectAgent(null, [])).toBeNull();
  });
});
