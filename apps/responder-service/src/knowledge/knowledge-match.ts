import { SemanticIndex, type DenseMatch } from '../semantics/semantic-index';
import { dot, type TextEmbedder } from '../semantics/text-embedder';
import { answerExcerpt } from './excerpt';
import { sentences } from './instruction-facts';
import type { Language } from './language';
import { questionSentences } from './questions';
import { analyze } from './text-analysis';
import { ANSWER_THRESHOLD, knowledgeIndex, knowledgeKey, type KnowledgeSet, type RankedPassage } from './rank-knowledge';

/** The engine's sense of meaning: a sentence-embedding model and the languages it understands. */
export interface Meaning {
  embedder: TextEmbedder;
  /** A question or passage in another language is matched by its words only (an English model reads Spanish badly). */
  languages: readonly Language[];
  /** Which model: stored vectors of another model are not used (they are embedded again). */
  model: string;
}

/** What answers a question from the agent's knowledge, how sure the engine is, and what found it. */
export interface KnowledgeMatch {
  /** The passage that answers (instruction facts answering equally well: several), each with its `score` 0..1. */
  passages: RankedPassage[];
  /** How sure the engine is that this answers the question (0..1; CONTRACT §20 `confidence`). */
  confidence: number;
  /** The share of the question's words the passage covers (RankedPassage.score of the word ranking; 0 if none). */
  coverage: number;
  excerpt: string;
  /** `words`: the word ranking (ANSWER_THRESHOLD); `meaning`: the model, for a question phrased in other words. */
  via: 'words' | 'meaning';
}

/**
 * Chosen on the development split of `npm run eval` (never the held-out one): a question the knowledge answers in other
 * words meets its passage at a cosine of MEANING_ANSWERS or more, clear of the next passage by MEANING_MARGIN. The
 * cosine alone does not tell a near miss ("do you accept medicaid" beside the insurers) from an answer, which is why
 * coversEveryWord has the last word: no development near miss gets through all three.
 */
export const MEANING_ANSWERS = 0.3;
export const MEANING_MARGIN = 0.08;

/** A passage covering this much of a question's words answers it though the question has a word the knowledge lacks. */
const WHOLE_QUESTION = 0.8;

/** Instruction facts answering equally well are answered together ("open on Monday?": the days and the closure). */
const MAX_TIED_FACTS = 3;

/**
 * The passage of the agent's knowledge that answers a question, or null: first by its words (a passage covering enough
 * of the question, ANSWER_THRESHOLD), else by meaning when the model reads the question's language (a passage whose
 * meaning is clearly nearest, MEANING_ANSWERS and MEANING_MARGIN). Never a passage that is merely about the topic.
 */
export async function matchKnowledge(query: string, knowledge: KnowledgeSet, language: Language, meaning: Meaning | null): Promise<KnowledgeMatch | null> {
  const key = knowledgeKey(knowledge);
  const lexical = knowledgeIndex(knowledge, key).rank(query, language);
  const dense = meaning && meaning.languages.includes(language) ? await rankByMeaning(query, knowledge, key, meaning) : [];
  const byId = new Map(dense.map((d) => [d.id, d]));

  // A passage that covers enough of the question's words but lacks a topic it asks about (a price asked of a passage
  // with none) does not answer it: the next one may.
  const asked = conceptsOf(query, language);
  // A word the knowledge never uses is what it cannot answer, unless the passage covers nearly all the rest.
  const unknown = (p: RankedPassage) => p.score < WHOLE_QUESTION && knowledgeIndex(knowledge, key).unknownWords(query, language, p.language).length > 0;
  const best = lexical.find((p) => p.score >= ANSWER_THRESHOLD && namesEvery(asked, p) && !unknown(p));
  if (best) {
    const tied = best.type === 'instruction' ? lexical.filter((p) => p.type === 'instruction' && p.score === best.score).slice(0, MAX_TIED_FACTS).sort(byFactNumber) : [best];
    const confidence = wordConfidence(best.score, byId.get(best.id));
    const passages = tied.map((p) => ({ ...p, score: wordConfidence(p.score, byId.get(p.id)) }));
    return { passages, confidence, coverage: best.score, excerpt: passages.map((p) => answerExcerpt(p, query, language)).join(' '), via: 'words' };
  }

  const [first, second] = dense;
  if (!first || first.cosine < MEANING_ANSWERS || first.cosine - (second?.cosine ?? 0) < MEANING_MARGIN) return null;
  const confidence = meaningConfidence(first.cosine);
  const passage: RankedPassage = { ...knowledgeIndex(knowledge, key).passages.find((p) => p.id === first.id)!, score: confidence };
  if (!(await coversEveryWord(query, passage, language, meaning!))) return null;
  const coverage = lexical.find((p) => p.id === first.id)?.score ?? 0;
  return {
    passages: [passage],
    confidence,
    coverage,
    excerpt: meaningExcerpt(passage, first, query, language),
    via: 'meaning',
  };
}

/**
 * A word of the question the passage does not contain is still covered when the model puts it next to one of the
 * passage's words ("car" by "garage", "kid" by "children"); a passage near the question's topic that lacks what it
 * names ("medicaid" beside a list of insurers, "aerial yoga" beside the classes taught) does not answer it.
 */
export const WORD_ALIGNS = 0.5;

// Words that carry the question's grammar, not its topic ("where do I leave my car", "can I bring my kid"): they need
// no counterpart in the passage.
const LIGHT_WORDS = new Set(
  (
    'leave put bring take find use need get give keep stay wait start end happen happens happened anything something ' +
    'exactly actually basically really just still even also maybe kinda sorta lol omg pls please thing things stuff ' +
    'guys people someone somebody anyone everyone whole total first last next new old little big lot lots bit'
  ).split(' '),
);

export async function coversEveryWord(query: string, passage: RankedPassage, language: Language, meaning: Meaning): Promise<boolean> {
  const { concepts, unaligned } = await wordsNotCovered(query, passage, language, meaning, { stopAtConcept: true });
  return concepts.length === 0 && unaligned.length === 0;
}

/**
 * What of the question the passage does not speak to: the required topics it names that the passage lacks
 * (`concepts`), the question's meaningful words neither in the passage nor next to one of its words (`unaligned`),
 * out of the meaningful words it lacks outright (`missing`). `stopAtConcept`: a lacking topic is answer enough (the
 * words are not embedded).
 */
export async function wordsNotCovered(
  query: string,
  passage: RankedPassage,
  language: Language,
  meaning: Meaning,
  { stopAtConcept = false } = {},
): Promise<{ concepts: string[]; missing: string[]; unaligned: string[] }> {
  const own = analyze(`${passage.title} ${passage.text}`, passage.language);
  const stems = new Set(own.map((t) => t.term));
  // A topic the question names by a concept (a price, a child) must be in the passage as that concept.
  const asked = analyze(query, language, { query: true, stemLanguage: passage.language }).filter((t) => t.weight >= 1 && !stems.has(t.term));
  const concepts = [...new Set(asked.filter((t) => REQUIRED_CONCEPTS.has(t.term)).map((t) => t.term))];
  const missing = [...new Set(asked.map((t) => t.word).filter((w): w is string => w !== undefined && !/\d/.test(w) && !LIGHT_WORDS.has(w)))];
  if (missing.length === 0 || (stopAtConcept && concepts.length > 0)) return { concepts, missing, unaligned: [] };
  const words = [...new Set(own.map((t) => t.word).filter((w): w is string => w !== undefined && !/\d/.test(w)))];
  if (words.length === 0) return { concepts, missing, unaligned: missing };
  const vectors = await meaning.embedder.embed([...missing, ...words]);
  const unaligned = missing.filter((_, i) => !words.some((__, j) => dot(vectors[i], vectors[missing.length + j]) >= WORD_ALIGNS));
  return { concepts, missing, unaligned };
}

/**
 * The topics a question may ask about that a passage must name to answer it: what it costs, where to park, which
 * insurance, how to pay, delivery, refunds, discounts, children. Not the topics that describe the customer's situation
 * ("my tooth is broken", "it hurts"), nor a day: mostly when the customer means to come ("how much is a cleaning on
 * Saturday?"), and a question about the days themselves meets the passages naming them by its other words.
 */
const REQUIRED_CONCEPTS = new Set(['#price', '#parking', '#insurance', '#pay', '#deliver', '#refund', '#discount', '#child']);

/** The required topics the question names outright, not by a hint ("where" hints at an address, "when" at hours). */
function conceptsOf(query: string, language: Language): string[] {
  return [...new Set(analyze(query, language, { query: true }).filter((t) => REQUIRED_CONCEPTS.has(t.term) && t.weight >= 1).map((t) => t.term))];
}

function namesEvery(concepts: readonly string[], passage: RankedPassage): boolean {
  if (concepts.length === 0) return true;
  const own = new Set(analyze(`${passage.title} ${passage.text}`, passage.language).map((t) => t.term));
  return concepts.every((c) => own.has(c));
}

/** Confidence in a passage found by its words: its coverage, lifted a little when its meaning agrees. */
function wordConfidence(coverage: number, dense: DenseMatch | undefined): number {
  const agreement = dense ? Math.max(0, Math.min(1, (dense.cosine - 0.2) / 0.5)) : 0;
  return round(Math.min(1, 0.5 + coverage * 0.4 + agreement * 0.1));
}

/** Confidence in a passage found by meaning: from just above the threshold (0.5) to certain (a cosine of 0.85). */
function meaningConfidence(cosine: number): number {
  return round(Math.min(1, 0.5 + (0.5 * (cosine - MEANING_ANSWERS)) / (0.85 - MEANING_ANSWERS)));
}

const round = (x: number) => Math.round(x * 100) / 100;

/** A document passage found by one of its sentences answers with that sentence (and the list it opens). */
function meaningExcerpt(passage: RankedPassage, match: DenseMatch, query: string, language: Language): string {
  if (passage.type !== 'document' || match.view === 0) return answerExcerpt(passage, query, language);
  const parts = sentences(passage.text);
  const at = match.view - 1;
  let end = at + 1;
  while (end < parts.length && parts[end - 1].endsWith(':') && end - at < 3) end++;
  return parts.slice(at, end).join(parts[at].endsWith(':') ? '\n' : ' ');
}

const byFactNumber = (a: RankedPassage, b: RankedPassage) => factNumber(a) - factNumber(b);
const factNumber = (p: RankedPassage) => Number(p.id.slice(p.id.lastIndexOf('-') + 1));

/**
 * The passages nearest the question in the model's space, best first, with their cosine as `score`: candidates for
 * the LLM's prompt beside the word ranking's (retrieval only: the LLM judges whether they answer). Empty when the
 * model does not read the question's language.
 */
export async function passagesByMeaning(query: string, knowledge: KnowledgeSet, language: Language, meaning: Meaning, limit: number): Promise<RankedPassage[]> {
  if (!meaning.languages.includes(language)) return [];
  const key = knowledgeKey(knowledge);
  const passages = new Map(knowledgeIndex(knowledge, key).passages.map((p) => [p.id, p]));
  return (await rankByMeaning(query, knowledge, key, meaning)).slice(0, limit).map((d) => ({ ...passages.get(d.id)!, score: d.cosine }));
}

// One index by meaning per knowledge set, built once (documents bring their stored vectors; FAQs and instruction facts
// are embedded then), bounded by the vectors held (int8: 384 bytes each).
const MAX_CACHED_VECTORS = 100_000;
const semanticIndexes = new Map<string, Promise<SemanticIndex>>();
const cachedSizes = new Map<string, number>();

async function rankByMeaning(query: string, knowledge: KnowledgeSet, key: string, meaning: Meaning): Promise<DenseMatch[]> {
  const index = await semanticIndexFor(knowledge, key, meaning);
  const asked = [query, ...questionSentences(query)];
  const vectors = await meaning.embedder.embed(asked);
  const best = new Map<string, DenseMatch>();
  for (const vector of vectors) {
    for (const match of index.rank(vector)) {
      const seen = best.get(match.id);
      if (!seen || match.cosine > seen.cosine) best.set(match.id, match);
    }
  }
  return [...best.values()].sort((a, b) => b.cosine - a.cosine);
}

function semanticIndexFor(knowledge: KnowledgeSet, key: string, meaning: Meaning): Promise<SemanticIndex> {
  let index = semanticIndexes.get(key);
  if (!index) {
    const vectorsOf = new Map((knowledge.documents ?? []).map((d) => [d.id, d.vectors]));
    const passages = knowledgeIndex(knowledge, key)
      .passages.filter((p) => meaning.languages.includes(p.language))
      .map((p) => ({ ...p, vectors: vectorsOf.get(p.id) }));
    index = SemanticIndex.build(passages, meaning.embedder);
    semanticIndexes.set(key, index);
    index.then(
      (built) => {
        cachedSizes.set(key, built.size);
        let total = [...cachedSizes.values()].reduce((a, b) => a + b, 0);
        for (const old of semanticIndexes.keys()) {
          if (total <= MAX_CACHED_VECTORS || old === key) break;
          total -= cachedSizes.get(old) ?? 0;
          semanticIndexes.delete(old);
          cachedSizes.delete(old);
        }
      },
      () => semanticIndexes.delete(key),
    );
  }
  return index;
}
