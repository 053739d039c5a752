import type { Faq } from '@parley/contracts';
import type { DocumentPassage } from '../knowledge/document-passage';
import type { Language } from '../knowledge/language';

/** What an agent knows (CONTRACT.md §11): its FAQs, its documents' passages and the facts stated in its instruction. */
export interface AgentKnowledge {
  faqs: readonly Faq[];
  documents: readonly DocumentPassage[];
  instruction: string;
}

/** One passage the knowledge ranker found for a query; its id is what the LLM cites. */
export interface RankedPassage {
  type: 'faq' | 'document' | 'instruction';
  id: string;
  title: string;
  text: string;
  /** How much of the query the passage covers, 0..1. */
  score: number;
}

/** The lexical knowledge ranker (src/knowledge/rank-knowledge.ts): every passage sharing a term with the query, best first. */
export type RankKnowledge = (query: string, knowledge: AgentKnowledge, language: Language) => readonly RankedPassage[];
