import { plain } from '../knowledge/excerpt';
import { matchKnowledge, type KnowledgeMatch, type Meaning } from '../knowledge/knowledge-match';
import { ENGINE_PHRASES } from '../replies/engine-phrases';
import type { SkillAnswer, SkillRequest } from './skill';

/** Unanswerable questions in a row after which the agent stops apologising and hands over to a person. */
const GIVE_UP_AFTER = 2;

export type KnowledgeAnswer = KnowledgeMatch;

/**
 * The answer to a message from the agent's knowledge (FAQs, document passages, instruction facts, CONTRACT.md §11),
 * by its words or its meaning (knowledge/knowledge-match.ts); null when nothing answers it, and for an agent without
 * `faq_responder`.
 */
export function knowledgeAnswer(request: SkillRequest, meaning: Meaning | null): Promise<KnowledgeAnswer | null> {
  const { agent, message, language } = request;
  if (!agent.skills.includes('faq_responder')) return Promise.resolve(null);
  return matchKnowledge(message.text, { faqs: agent.faqs, documents: request.documents, instruction: agent.instruction }, language, meaning);
}

export function answerFromKnowledge(request: SkillRequest, answer: KnowledgeAnswer): SkillAnswer {
  return {
    text: answer.excerpt,
    skill: 'faq_responder',
    state: { ...request.state, unknownStreak: 0, humanOffered: false },
    confidence: answer.confidence,
    sources: answer.passages.map((p) => ({ type: p.type, id: p.id, title: p.title, excerpt: p.type === 'document' ? answer.excerpt : plain(p.text), score: p.score })),
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
    return { text: phrases.notKnownGiveUp, skill: 'faq_responder', state: { ...request.state, unknownStreak: 0, humanOffered: false }, handoff: 'skill_gave_up', notKnown: true };
  }
  return { text: phrases.notKnown, skill: 'faq_responder', state: { ...request.state, unknownStreak: streak, humanOffered: true }, notKnown: true };
}

