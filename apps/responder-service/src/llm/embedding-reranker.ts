import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { RankedPassage } from './knowledge-passage';
import type { CallBudget, LlmClient } from './openai.client';

/** Passage vectors kept in memory; an agent's passages are embedded once, then only changed text is. */
const MAX_CACHED_VECTORS = 20_000;
/** Texts one embeddings request carries. */
const BATCH = 128;

/**
 * Reorders the lexical ranker's candidates by meaning, with the embeddings of the server that writes the replies
 * (`POST /v1/embeddings`). Whether that server has embeddings is probed once, on first use, and remembered: a server
 * without them (404, an unknown model) leaves retrieval lexical for the life of the process. Passage vectors are
 * cached by passage id and a hash of its text, so an edited passage is embedded again and an unchanged one never is.
 */
export class EmbeddingReranker {
  private readonly logger = new Logger(EmbeddingReranker.name);
  private probe: Promise<boolean> | null = null;
  private readonly vectors = new Map<string, number[]>();

  constructor(
    private readonly client: LlmClient,
    private readonly model: string,
  ) {}

  /** True once the server has answered an embeddings request; false for good after it failed the probe. */
  available(budget: CallBudget): Promise<boolean> {
    this.probe ??= this.client.embed(this.model, ['probe'], budget).then(
      () => {
        this.logger.log(`embeddings from ${this.model} rerank knowledge for the LLM`);
        return true;
      },
      (err: Error) => {
        this.logger.log(`no embeddings (${err.message}); knowledge retrieval for the LLM stays lexical`);
        return false;
      },
    );
    return this.probe;
  }

  /**
   * The candidates in order of the mean of their lexical score (the share of the query they cover, 0..1) and their
   * cosine similarity to the query: a passage phrased differently from the question climbs, ties keep lexical order.
   */
  async rerank(query: string, candidates: readonly RankedPassage[], budget: CallBudget): Promise<RankedPassage[]> {
    if (candidates.length < 2) return [...candidates];
    const keys = candidates.map(cacheKey);
    const missing = candidates.filter((_, i) => !this.vectors.has(keys[i]));
    const [queryVector] = await this.client.embed(this.model, [query], budget);
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      const vectors = await this.client.embed(this.model, batch.map(embeddedText), budget);
      batch.forEach((p, j) => this.remember(cacheKey(p), vectors[j]));
    }
    const fused = candidates.map((p, i) => (p.score + Math.max(0, cosine(queryVector, this.vectors.get(keys[i])!))) / 2);
    return candidates
      .map((_, i) => i)
      .sort((a, b) => fused[b] - fused[a])
      .map((i) => candidates[i]);
  }

  private remember(key: string, vector: number[]): void {
    if (this.vectors.size >= MAX_CACHED_VECTORS) this.vectors.delete(this.vectors.keys().next().value!);
    this.vectors.set(key, vector);
  }
}

function embeddedText(passage: RankedPassage): string {
  return passage.title && !passage.text.startsWith(passage.title) ? `${passage.title}\n${passage.text}` : passage.text;
}

function cacheKey(passage: RankedPassage): string {
  return `${passage.id}:${createHash('sha256').update(embeddedText(passage)).digest('base64url')}`;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
