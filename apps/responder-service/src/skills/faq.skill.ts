import type { Faq } from '@parley/contracts';
import { answerExcerpt } from '../knowledge/excerpt';
import { answeringPassages, type RankedPassage } from '../knowledge/rank-knowledge';
import { ENGINE_PHRASES } from '../replies/engine-phrases';
import { FaqIndex } from './faq-index';
import type { SkillAnswer, SkillRequest } from './skill';

/** Unanswerable questions in a row after which the agent stops apologising and hands over to a person. */
const GIVE_UP_AFTER = 2;

/** The passage that answers a message, and the part of it that does. */
export interface KnowledgeAnswer {
  passage: RankedPassage;
  excerpt: string;
}

/**
 * The answer to a message from the agent's knowledge (FAQs, document passages, instruction facts, CONTRACT.md §11),
 * when a passage covers enough of it (ANSWER_THRESHOLD); null otherwise, and for an agent without `faq_responder`.
 */
export function knowledgeAnswer(request: SkillRequest): KnowledgeAnswer | null {
  const { agent, message, language } = request;
  if (!agent.skills.includes('faq_responder')) return null;
  const best = answeringPassages(message.text, { faqs: agent.faqs, documents: request.documents, instruction: agent.instruction }, language)[0];
  return best ? { passage: best, excerpt: answerExcerpt(best, message.text, language) } : null;
}

export function answerFromKnowledge(request: SkillRequest, answer: KnowledgeAnswer): SkillAnswer {
  const { passage, excerpt } = answer;
  return {
    text: excerpt,
    skill: 'faq_responder',
    state: { ...request.state, unknownStreak: 0, humanOffered: false },
    sources: [{ type: passage.type, id: passage.id, title: passage.title, excerpt }],
  };
}

/**
 * Below the answer threshold the agent does not guess: it says it does not know and offers a person; asked again
 * something it cannot answer, it hands the conversation over.
 */
export function unknownQuestion(request: SkillRequest): SkillAnswer {
  const phrases = ENGINE_PHRASES[request.language];
  const streak = (request.state.unknownStreak ?? 0) + 1;
  if (streak >= GIVE_UP_AFTER) {
    return { text: phrases.notKnownGiveUp, skill: 'faq_responder', state: { ...request.state, unknownStreak: 0, humanOffered: false }, handoff: 'skill_gave_up' };
  }
  return { text: phrases.notKnown, skill: 'faq_responder', state: { ...request.state, unknownStreak: streak, humanOffered: true } };
}

// The LLM engine's FAQ search tool predates rankKnowledge; it goes (with faq-index.ts) once that tool uses it.
const faqIndexes = new Map<string, FaqIndex>();

export function faqIndex(faqs: readonly Faq[]): FaqIndex {
  const key = JSON.stringify(faqs);
  let index = faqIndexes.get(key);
  if (!index) {
    if (faqIndexes.size >= 500) faqIndexes.delete(faqIndexes.keys().next().value!);
    index = new FaqIndex(faqs);
    faqIndexes.set(key, index);
  }
  return index;
}
