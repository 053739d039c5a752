import type { Skill } from '@parley/contracts';
import type { Language } from '../knowledge/language';
import type { ReplyEffects, ReplyRequest, ReplySource, SkillState } from '../replies/reply-engine';

/** One skill's answer to a message: the text (before greeting), the next skill memory, and what should happen. */
export interface SkillAnswer {
  text: string;
  skill: Skill | null;
  state: SkillState;
  handoff?: 'customer_asked_for_human' | 'skill_gave_up';
  effects?: ReplyEffects;
  /** The knowledge the answer used (a FAQ, document passage or instruction fact). */
  sources?: ReplySource[];
  /** How sure the engine is of an answer from knowledge (0..1), CONTRACT §20. */
  confidence?: number;
  /** The agent said it does not know (a knowledge gap, CONTRACT.md §19). */
  notKnown?: boolean;
}

/** What a skill answers: the request, and the customer's language (detected by the engine, CONTRACT.md §11). */
export type SkillRequest = ReplyRequest & { language: Language };

// Yes and no in the five languages ("yes confirm", "sí claro", "sim", "oui", "ja, passt").
export { isNo, isYes } from './confirmations';

export function isQuestion(text: string): boolean {
  return /\?\s*$/.test(text.trim()) || /^\s*(what|when|where|why|how|who|which|do|does|did|is|are|can|could|will|would|should|have|has)\b/i.test(text);
}

const HUMAN =
  /\b(human|real person|an? (actual|real) (person|agent|human)|some(one|body) real|live (agent|person|chat)|representative|operator|manager|staff member|customer service)\b|\b(speak|talk|chat)\s+(to|with)\s+(some(one|body)|a (person|human|agent|representative)|an? (actual|real) (person|human)|staff|the owner)\b/i;

/** The customer asks for a person instead of the agent. */
export function asksForHuman(text: string): boolean {
  return HUMAN.test(text);
}
