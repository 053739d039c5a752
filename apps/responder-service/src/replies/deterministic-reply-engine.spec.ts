import type { AgentRecord } from '@parley/contracts';
import { DeterministicReplyEngine } from './deterministic-reply-engine';
import { MAX_REPLY_CHARS, type ReplyRequest } from './reply-engine';

const bakery: AgentRecord = {
  id: 'agt_01JBAKERY0000000000000000',
  name: 'bakery',
  instruction: 'You answer questions about our bakery.',
  greeting: 'Hi! I am the bakery assistant.',
  skills: ['faq_responder', 'lead_capture'],
  faqs: [
    { question: 'What are your opening hours?', answer: 'We are open 8:00-18:00, Monday to Saturday.' },
    { question: 'Do you deliver cakes?', answer: 'Yes, we deliver cakes within 10 km.' },
    { question: 'Do you have gluten-free bread?', answer: 'Yes, every day from 10:00.' },
  ],
  booking: null,
  version: 1,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

function request(text: string, firstReply: boolean, agent: AgentRecord = bakery): ReplyRequest {
  return { agent, conversationHistory: [], firstReply, message: { text, type: 'text', contactName: null } };
}

describe('DeterministicReplyEngine', () => {
  const engine = new DeterministicReplyEngine();

  it("opens the conversation's first reply with the greeting, and only the first", async () => {
    const first = await engine.reply(request('Hello there', true));
    expect(first.text.startsWith(`${bakery.greeting}\n\n`)).toBe(true);
    const later = await engine.reply(request('Hello there', false));
    expect(later.text).not.toContain(bakery.greeting);
    expect(first.text.endsWith(later.text)).toBe(true);
  });

  it('answers a matching FAQ, tolerating other wording, case and punctuation', async () => {
    expect(await engine.reply(request('opening HOURS??', false))).toEqual({
      text: 'We are open 8:00-18:00, Monday to Saturday.',
      skill: 'faq_responder',
      handoff: false,
    });
    expect((await engine.reply(request('Hi, when are you opening? what hours', false))).text).toBe(bakery.faqs[0].answer);
    expect((await engine.reply(request('can you deliver a cake to my office', false))).text).toBe(bakery.faqs[1].answer);
    const greeted = await engine.reply(request('Is there any gluten free bread?', true));
    expect(greeted.text).toBe(`${bakery.greeting}\n\n${bakery.faqs[2].answer}`);
  });

  it('acknowledges a message no FAQ matches, naming the agent and what it can do', async () => {
    const reply = await engine.reply(request('My order number is 12345', false));
    expect(reply).toEqual({
      text: "Thanks for your message! You're chatting with bakery. I can answer your questions or pass your details to our team. Could you tell me a little more about what you need?",
      skill: null,
      handoff: false,
    });
  });

  it('acknowledges without offers when the agent has no skills, and without a greeting when it has none', async () => {
    const quiet = { ...bakery, name: 'front-desk', greeting: '', skills: [], faqs: [] };
    const reply = await engine.reply(request('Hello', true, quiet));
    expect(reply.text).toBe("Thanks for your message! You're chatting with front-desk. We have received it and will get back to you.");
  });

  it('is deterministic: the same request always gets the same reply', async () => {
    const messages = ['opening hours', 'do you deliver', 'something else entirely', '', '[image] a photo'];
    for (const text of messages) {
      for (const firstReply of [true, false]) {
        const replies = await Promise.all([1, 2, 3].map(() => engine.reply(request(text, firstReply))));
        expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
      }
    }
  });

  it('keeps a long greeting and answer within one WhatsApp message', async () => {
    const verbose = { ...bakery, greeting: 'g'.repeat(1000), faqs: [{ question: 'opening hours', answer: 'a'.repeat(4000) }] };
    const reply = await engine.reply(request('opening hours', true, verbose));
    expect(reply.text.length).toBe(MAX_REPLY_CHARS);
    expect(reply.text.startsWith('g'.repeat(1000))).toBe(true);
  });
});
