import type { Faq } from '@parley/contracts';
import { createHash } from 'node:crypto';
import { FaqIndex } from './faq-index';
import type { SkillAnswer, SkillRequest } from './skill';

/** Unanswerable questions in a row after which the agent stops apologising and hands over to a person. */
const GIVE_UP_AFTER = 2;

// Building an index is cheap, but an agent with hundreds of FAQs answers many messages: keep one per FAQ set.
const indexes = new Map<string, FaqIndex>();
const MAX_CACHED = 500;

export function faqIndex(faqs: readonly Faq[]): FaqIndex {
  const key = createHash('sha256').update(JSON.stringify(faqs)).digest('base64');
  let index = indexes.get(key);
  if (!index) {
    if (indexes.size >= MAX_CACHED) indexes.delete(indexes.keys().next().value!);
    index = new FaqIndex(faqs);
    indexes.set(key, index);
  }
  return index;
}

/** The FAQ answer to a message when one clears the confidence threshold. */
export function faqAnswer(request: SkillRequest): Faq | null {
  const { agent } = request;
  if (!agent.skills.includes('faq_responder') || agent.faqs.length === 0) return null;
  return faqIndex(agent.faqs).best(request.message.text)?.faq ?? null;
}

export function answerFromFaq(request: SkillRequest, faq: Faq): SkillAnswer {
  return { text: faq.answer, skill: 'faq_responder', state: { ...request.state, unknownStreak: 0, humanOffered: false } };
}

/**
 * Below the confidence threshold the agent does not guess: it says it does not know and offers a person; asked again
 * something it cannot answer, it hands the conversation over.
 */
export function unknownQuestion(request: SkillRequest): SkillAnswer {
  const streak = (request.state.unknownStreak ?? 0) + 1;
  if (streak >= GIVE_UP_AFTER) {
    return {
      text: "I'm sorry, I don't know that either. I'm passing you to a member of our team, who will reply here.",
      skill: 'faq_responder',
      state: { ...request.state, unknownStreak: 0, humanOffered: false },
      handoff: 'skill_gave_up',
    };
  }
  return {
    text: "I'm sorry, I don't know the answer to that. Would you like me to connect you with a person from our team?",
    skill: 'faq_responder',
    state: { ...request.state, unknownStreak: streak, humanOffered: true },
  };
}
