import { analyze } from '../knowledge/text-analysis';
import type { Language } from '../knowledge/language';
import { dot } from '../semantics/text-embedder';

/**
 * When two questions are one gap, chosen on tools/eval/gap-pairs/development.json (200 pairs written for it: 80 English,
 * 30 each Spanish, Portuguese, French, German; half rewordings of one need sharing few words, half other needs, mostly
 * of the same business and topic). A merge of two needs (the owner's one answer then misfits one of them, for every
 * customer who asks it) costs more than a second gap answered the same way: the lines group as much as the set allows
 * with at most 5% of its different needs merged.
 *
 * Where the model reads the language (English), by meaning: the cosine of the question's all-MiniLM-L6-v2 vector and
 * the gap's centroid reaches SAME_GAP_COSINE, plus SWAPPED_WORD_PENALTY × the share of terms (Jaccard) the question and
 * a wording of the gap have in common when each also has one the other lacks ("how much is whitening" / "how long does
 * whitening take" 0.66): shared words raise the cosine by themselves, and a word swapped in one frame is most often
 * another need. A question that only adds words to a wording ("where can I park" / "... my car") or shares none ("is
 * breakfast included" / "does the room price come with a morning meal" 0.66) meets the line itself. On the development
 * set 11/40 rewordings grouped, 2/40 other needs merged ("what time is check in" / "... check out" 0.83: "in" and "out"
 * are stop words; "how long does keratin last" / "... a keratin appointment take" 0.72). The line at 0.52 / 0.54 /
 * 0.56 / 0.58 / 0.60 / 0.62 groups 13 / 12 / 11 / 9 / 9 / 5 and merges 4 / 3 / 2 / 2 / 1 / 1 (the 0.60 point's one
 * merge fewer rests on a cosine 0.002 under its line); a penalty of 0.4 or 0.6 gives the same 11 / 2; without it the
 * line at 0.56 merges 11, the old cosine-only 0.62 grouped 9 and merged 7.
 *
 * Elsewhere, by words (stems and the knowledge module's cross-language concepts), which cannot tell most rewordings in
 * other words from another need: a wording of the gap and the question must swap no term and share at least
 * SAME_GAP_WORDS terms that are not question-word hints. On the development set 2/60 rewordings grouped, 0/60 other
 * needs merged; the old share of stemmed terms ≥ 0.5 grouped 2 and merged 5.
 */
export const SAME_GAP_COSINE = 0.56;
export const SWAPPED_WORD_PENALTY = 0.5;
export const SAME_GAP_WORDS = 2;

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
  // the question's terms once, not once per wording of every gap it is held against
  let terms: Set<string> | undefined;
  const questionTerms = () => (terms ??= termsOf(key, question.language));
  let best: { candidate: GapCandidate; score: number } | null = null;
  for (const candidate of candidates) {
    const score = candidate.wordings.includes(key) ? Infinity : fit(question, questionTerms, candidate);
    if (score >= 0 && (!best || score > best.score)) best = { candidate, score };
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

/** How far past its line a question is from a gap: 0 or more when they are one. */
function fit(question: GapQuestion, questionTerms: () => Set<string>, candidate: GapCandidate): number {
  const overlaps = () => candidate.wordings.map((wording) => overlap(questionTerms(), termsOf(wording, question.language)));
  if (question.vector && candidate.centroid) {
    const margin = dot(question.vector, candidate.centroid) - SAME_GAP_COSINE;
    // the penalty only raises the line: words are read for the gaps already past it
    return margin < 0 ? margin : margin - SWAPPED_WORD_PENALTY * Math.max(0, ...overlaps().map((o) => (o.swapped ? o.jaccard : 0)));
  }
  return Math.max(-1, ...overlaps().map((o) => (o.swapped ? -1 : o.named - SAME_GAP_WORDS)));
}

/**
 * What two wordings' terms have in common. A question word's hint ("how much", "cuánto" → `?#price`) is a term of its
 * own, met by the hint or by the concept itself ("precio"): "cuánto cuesta" and "cuánto dura" share the hint, and the
 * word each has alone tells them apart.
 */
function overlap(a: Set<string>, b: Set<string>): { jaccard: number; swapped: boolean; named: number } {
  let shared = 0;
  let named = 0;
  for (const term of a) {
    if (!b.has(term)) continue;
    shared++;
    if (!term.startsWith(HINT)) named++;
  }
  const aloneInA = alone(a, b);
  const swapped = aloneInA > 0 && aloneInA < a.size && alone(b, a) > 0;
  return { jaccard: shared / (a.size + b.size - shared || 1), swapped, named };
}

/** How many of `a`'s terms `b` does not meet. */
const alone = (a: Set<string>, b: Set<string>) => [...a].filter((t) => !b.has(t) && !(t.startsWith(HINT) && b.has(t.slice(HINT.length)))).length;

const HINT = '?';

// A gap's wordings are read again for every question placed against it; their terms are remembered (bounded), by
// language and then wording (no key built per lookup: a question is held against every wording of every open gap).
const remembered = new Map<Language, Map<string, Set<string>>>();
const MAX_REMEMBERED = 10_000;

function termsOf(key: string, language: Language): Set<string> {
  let ofLanguage = remembered.get(language);
  if (!ofLanguage) remembered.set(language, (ofLanguage = new Map()));
  let terms = ofLanguage.get(key);
  if (!terms) {
    // weightless terms repeat a concept word's own stem; a number (weight ½) is a quantity, seldom the topic
    const read = analyze(key, language, { query: true }).filter((t) => t.weight > 0 && !(t.word && t.weight < 1));
    terms = new Set(read.map((t) => (t.word === undefined ? `${HINT}${t.term}` : t.term)));
    if (ofLanguage.size >= MAX_REMEMBERED) ofLanguage.delete(ofLanguage.keys().next().value!);
    ofLanguage.set(key, terms);
  }
  return terms;
}
