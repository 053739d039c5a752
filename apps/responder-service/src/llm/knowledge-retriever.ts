import { Logger } from '@nestjs/common';
import type { Language } from '../knowledge/language';
import type { EmbeddingReranker } from './embedding-reranker';
import type { AgentKnowledge, RankKnowledge, RankedPassage } from './knowledge-passage';
import type { CallBudget } from './openai.client';

/** Lexical candidates the embeddings may reorder (the prompt takes the first few). */
const CANDIDATES = 20;
/**
 * Candidates must cover this share of the query. Lower than the deterministic engine's answer threshold: the model
 * judges whether a passage answers, so recall matters here; a passage sharing one common word does not get in.
 */
const MIN_SCORE = 0.2;

/**
 * Retrieval for the LLM: the knowledge ranker's lexical candidates (the same ranking the deterministic engine answers
 * from), reordered by meaning when the LLM server has embeddings. An embeddings failure during a reply costs only the
 * reordering, never the reply.
 */
export class KnowledgeRetriever {
  private readonly logger = new Logger(KnowledgeRetriever.name);

  constructor(
    private readonly rank: RankKnowledge,
    private readonly reranker: EmbeddingReranker | null,
  ) {}

  async retrieve(query: string, knowledge: AgentKnowledge, language: Language, budget: CallBudget): Promise<RankedPassage[]> {
    const lexical = this.rank(query, knowledge, language)
      .filter((p) => p.score >= MIN_SCORE)
      .slice(0, CANDIDATES);
    if (!this.reranker || lexical.length < 2) return lexical;
    try {
      return (await this.reranker.available(budget)) ? await this.reranker.rerank(query, lexical, budget) : lexical;
    } catch (err) {
      this.logger.warn(`embeddings failed (${(err as Error).message}); lexical order this time`);
      return lexical;
    }
  }
}
