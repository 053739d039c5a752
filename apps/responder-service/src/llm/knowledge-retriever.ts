import { Logger } from '@nestjs/common';
import { passagesByMeaning, type Meaning } from '../knowledge/knowledge-match';
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

/** Passages nearer the question than this in the in-process model's space are candidates too (unrelated ones score 0.1–0.25). */
const MIN_COSINE = 0.3;
/** Reciprocal rank fusion's constant: a passage's fused score is Σ 1 / (RRF_K + rank) over the rankings it is in. */
const RRF_K = 60;

/**
 * Retrieval for the LLM (CONTRACT §11, issue 31): the knowledge ranker's lexical candidates (the same ranking the
 * deterministic engine answers from) fused with the in-process model's nearest passages (reciprocal rank fusion), then
 * reordered by the LLM server's own embeddings when it has them. An embeddings failure during a reply costs only the
 * reordering, never the reply.
 */
export class KnowledgeRetriever {
  private readonly logger = new Logger(KnowledgeRetriever.name);

  constructor(
    private readonly rank: RankKnowledge,
    private readonly reranker: EmbeddingReranker | null,
    private readonly meaning: Meaning | null = null,
  ) {}

  async retrieve(query: string, knowledge: AgentKnowledge, language: Language, budget: CallBudget): Promise<RankedPassage[]> {
    const lexical = this.rank(query, knowledge, language)
      .filter((p) => p.score >= MIN_SCORE)
      .slice(0, CANDIDATES);
    const dense = this.meaning ? (await passagesByMeaning(query, knowledge, language, this.meaning, CANDIDATES)).filter((p) => p.score >= MIN_COSINE) : [];
    const candidates = fuse(lexical, dense).slice(0, CANDIDATES);
    if (!this.reranker || candidates.length < 2) return candidates;
    try {
      return (await this.reranker.available(budget)) ? await this.reranker.rerank(query, candidates, budget) : candidates;
    } catch (err) {
      this.logger.warn(`embeddings failed (${(err as Error).message}); lexical order this time`);
      return candidates;
    }
  }
}

/** Both rankings in one, by reciprocal rank fusion; a passage keeps its lexical score when it has one. */
export function fuse(lexical: readonly RankedPassage[], dense: readonly RankedPassage[]): RankedPassage[] {
  const fused = new Map<string, { passage: RankedPassage; rrf: number }>();
  for (const ranking of [lexical, dense]) {
    ranking.forEach((passage, rank) => {
      const seen = fused.get(passage.id);
      fused.set(passage.id, { passage: seen?.passage ?? passage, rrf: (seen?.rrf ?? 0) + 1 / (RRF_K + rank + 1) });
    });
  }
  return [...fused.values()].sort((a, b) => b.rrf - a.rrf).map((f) => f.passage);
}
