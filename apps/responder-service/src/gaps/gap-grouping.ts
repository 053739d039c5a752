import { analyze } from '../knowledge/text-analysis';
import type { Language } from '../knowledge/language';
import { dot } from '../semantics/text-embedder';

/**
 * When two questions are one gap. By meaning (the cosine of their all-MiniLM-L6-v2 vectors) where the model reads the
 * language: 0.62 was chosen on 12 English pairs written for it (no held-out set yet): paraphrases scored 0.49–0.70
 * ("where can I park my car" / "is there parking near you" 0.69, "do you sell gift cards" / "can I buy a voucher as a
 * present" 0.49) and different questions 0.14–0.72 ("gift cards" / "credit cards" 0.58, student / senior discount
 * 0.72). The line is high on purpose: merging questions one answer does not fit costs the owner more than a second
 * gap that gets the same answer. Elsewhere by their words: the share of stemmed terms (Jaccard) two wordings share.
 */
export const SAME_GAP_COSINE = 0.62;
export const SAME_GAP_WORDS = 0.5;

/** A question to place: its text, language and, where the model reads the language, its unit vector. */
export interface GapQuestion {
  text: string;
  language: Language;
  vector: Float32Array | null;
}

/** An open gap as grouping sees it: its centroid (unit vector or null) and its wordings. */
export interface GapCandidate {
  id: string;
  centroid: Float32Array | null;
  wordings: string[];
}

/** The key that makes two wordings one ("Where can I park?" and "where can i park"): lower case, words only. */
export function wordingKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The open gap a question belongs to, or null when none is close enough. */
export function closestGap(question: GapQuestion, candidates: readonly GapCandidate[]): GapCandidate | null {
  const key = wordingKey(question.text);
  const terms = termsOf(question.text, question.language);
  let best: { candidate: GapCandidate; score: number } | null = null;
  for (const candidate of candidates) {
    const score = candidate.wordings.includes(key) ? Infinity : similarity(question, terms, candidate);
    if (score >= threshold(question, candidate) && (!best || score > best.score)) best = { candidate, score };
  }
  return best?.candidate ?? null;
}

/** The centroid after one more question: the normalised mean of `count` questions and the new one. */
export function mergedCentroid(centroid: Float32Array | null, count: number, vector: Float32Array | null): Float32Array | null {
  if (!vector) return centroid;
  if (!centroid) return vector;
  const sum = new Float32Array(vector.length);
  for (let i = 0; i < sum.length; i++) sum[i] = centroid[i] * count + vector[i];
  const norm = Math.sqrt(dot(sum, sum)) || 1;
  for (let i = 0; i < sum.length; i++) sum[i] /= norm;
  return sum;
}

function similarity(question: GapQuestion, terms: Set<string>, candidate: GapCandidate): number {
  if (question.vector && candidate.centroid) return dot(question.vector, candidate.centroid);
  let best = 0;
  for (const wording of candidate.wordings) best = Math.max(best, jaccard(terms, termsOf(wording, question.language)));
  return best;
}

const threshold = (question: GapQuestion, candidate: GapCandidate) => (question.vector && candidate.centroid ? SAME_GAP_COSINE : SAME_GAP_WORDS);

function termsOf(text: string, language: Language): Set<string> {
  return new Set(analyze(text, language, { query: true }).map((t) => t.term));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}
