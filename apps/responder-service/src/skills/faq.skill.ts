import { answerExcerpt } from '../knowledge/excerpt';
import { answeringPassages, type RankedPassage } from '../knowledge/rank-knowledge';
import { ENGINE_PHRASES } from '../replies/engine-phrases';
import type { SkillAnswer, SkillRequest } from './skill';

/** Unanswerable questions in a row after which the agent stops apologising and hands over to a person. */
const GIVE_UP_AFTER = 2;

/** The passages that answer a message (the best, and instruction facts tied with it), and the text that answers. */
export interface KnowledgeAnswer {
  passages: RankedPassage[];
  /** The best passage's share of the question (RankedPassage.score). */
  score: number;
  excerpt: string;
}

/** Instruction facts answering a question equally well are answered together ("open on Monday?": the days and the closure). */
const MAX_TIED_FACTS = 3;

/**
 * The answer to a message from the agent's knowledge (FAQs, document passages, instruction facts, CONTRACT.md §11),
 * when a passage covers enough of it (ANSWER_THRESHOLD); null otherwise, and for an agent without `faq_responder`.
 */
export function knowledgeAnswer(request: SkillRequest): KnowledgeAnswer | null {
  const { agent, message, language } = request;
  if (!agent.skills.includes('faq_responder')) return null;
  const answering = answeringPassages(message.text, { faqs: agent.faqs, documents: request.documents, instruction: agent.instruction }, language);
  const best = answering[0];
  if (!best) return null;
  const passages =
    best.type === 'instruction'
      ? answering
          .filter((p) => p.type === 'instruction' && p.score === best.score)
          .slice(0, MAX_TIED_FACTS)
          .sort((a, b) => factNumber(a) - factNumber(b))
      : [best];
  return { passages, score: best.score, excerpt: passages.map((p) => answerExcerpt(p, message.text, language)).join(' ') };
}

const factNumber = (p: RankedPassage) => Number(p.id.slice(p.id.lastIndexOf('-') + 1));

export function answerFromKnowledge(request: SkillRequest, answer: KnowledgeAnswer): SkillAnswer {
  return {
    text: answer.excerpt,
    skill: 'faq_responder',
    state: { ...request.state, unknownStreak: 0, humanOffered: false },
    sources: answer.passages.map((p) => ({ type: p.type, id: p.id, title: p.title, excerpt: answerExcerpt(p, request.message.text, request.language) })),
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

