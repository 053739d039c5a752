import { ConversationDriver } from './conversation-driver';
import { SCRIPTED_CONVERSATIONS } from './scripted-conversations.fixture';
import { MONDAY_MORNING } from './test-agents';

describe('scripted customer conversations (the closing note table)', () => {
  it('has at least 30 scripted messages across the three skills, each judged', () => {
    const steps = SCRIPTED_CONVERSATIONS.flatMap((c) => c.steps);
    expect(steps.length).toBeGreaterThanOrEqual(30);
    expect(new Set(steps.map((s) => s.skill))).toEqual(new Set(['faq_responder', 'lead_capture', 'appointment_booking', null]));
    for (const step of steps.filter((s) => s.verdict === 'wrong')) expect(step.note).toBeTruthy();
  });

  it.each(SCRIPTED_CONVERSATIONS.map((c, i) => [i + 1, c.agent.name, c] as const))('conversation %i (%s) answers as scripted', async (_, __, conversation) => {
    const chat = new ConversationDriver(conversation.agent, MONDAY_MORNING);
    for (const step of conversation.steps) {
      const reply = await chat.say(step.say);
      expect({ say: step.say, reply: reply.text, skill: reply.skill, handoff: reply.handoff }).toEqual({
        say: step.say,
        reply: step.reply,
        skill: step.skill,
        handoff: step.handoff,
      });
    }
  });
});
