import type { Faq } from '@parley/contracts';
import MiniSearch from 'minisearch';
import { keywordList } from '../replies/text-match';

/** A FAQ counts as the answer when the message scores at least this share of what its own question scores. */
export const FAQ_CONFIDENCE_THRESHOLD = 0.25;

export interface FaqMatch {
  faq: Faq;
  /** The message's BM25 score over this FAQ divided by the FAQ question's own score: about 1 for the question itself. */
  confidence: number;
}

// Customers and tenants rarely use the same words for one thing; each group is searched as one term.
const SYNONYMS: string[][] = [
  ['price', 'cost', 'fee', 'charge', 'expensive', 'cheap', 'pricing'],
  ['open', 'hour', 'close', 'opening', 'closing'],
  ['deliver', 'delivery', 'ship', 'shipping', 'send', 'post'],
  ['refund', 'return', 'money', 'back', 'exchange'],
  ['park', 'parking', 'car'],
  ['pay', 'payment', 'card', 'cash'],
  ['accept', 'take'],
  ['insurance', 'insurer', 'insured'],
  ['address', 'location', 'locate', 'located', 'find', 'directions'],
];
// Keyed by stem, as the words arrive after keywordList().
const SYNONYM_OF = new Map<string, string>(
  SYNONYMS.flatMap((group) => group.flatMap((word) => keywordList(word).map((stem) => [stem, group[0]] as [string, string]))),
);

// Phrases whose words are stopwords but whose meaning is not.
const PHRASES: [RegExp, string][] = [
  [/\bhow much\b/gi, ' price '],
  [/\bwhere\b/gi, ' address '],
  [/\bwhen\b.*\b(open|close)/gi, ' hour $1 '],
];

function terms(text: string): string[] {
  const phrased = PHRASES.reduce((t, [re, to]) => t.replace(re, to), text);
  return keywordList(phrased).map((w) => SYNONYM_OF.get(w) ?? SYNONYM_OF.get(closeSynonym(w) ?? '') ?? w);
}

// Customers repeat their words: the edit-distance scan over every synonym runs once per word (bounded, oldest dropped).
const closeSynonyms = new Map<string, string | null>();
const MAX_REMEMBERED_WORDS = 10_000;

/** A misspelt synonym ("adress", "delivry") is one edit away from a known one; only longer words, to avoid false friends. */
function closeSynonym(word: string): string | null {
  if (word.length < 5) return null;
  const remembered = closeSynonyms.get(word);
  if (remembered !== undefined) return remembered;
  let close: string | null = null;
  for (const known of SYNONYM_OF.keys()) {
    if (Math.abs(known.length - word.length) <= 1 && editDistance(known, word) <= 1) {
      close = known;
      break;
    }
  }
  if (closeSynonyms.size >= MAX_REMEMBERED_WORDS) closeSynonyms.delete(closeSynonyms.keys().next().value!);
  closeSynonyms.set(word, close);
  return close;
}

/** Edit distance counting a swap of neighbours as one edit (the commonest typo). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * BM25 retrieval (minisearch) over one agent's FAQs. Raw BM25 scores depend on the collection (one FAQ scores very
 * differently from three hundred), so confidence is the message's score relative to the FAQ's own question: a threshold
 * on that works for one FAQ as well as for many.
 */
export class FaqIndex {
  private readonly search = new MiniSearch<{ id: number; question: string; answer: string }>({
    fields: ['question', 'answer'],
    storeFields: [],
    tokenize: (text) => terms(text),
    processTerm: (term) => term,
    searchOptions: { boost: { question: 3 }, fuzzy: (term) => (term.length >= 5 ? 0.2 : false), prefix: (term) => term.length >= 5 },
  });
  private readonly selfScores: number[];

  constructor(private readonly faqs: readonly Faq[]) {
    this.search.addAll(faqs.map((f, id) => ({ id, question: f.question, answer: f.answer })));
    this.selfScores = faqs.map((f, id) => this.search.search(f.question, { fuzzy: false, prefix: false }).find((r) => r.id === id)?.score ?? 0);
  }

  /** The best FAQ for a message, when it clears the confidence threshold. */
  best(message: string, threshold = FAQ_CONFIDENCE_THRESHOLD): FaqMatch | null {
    const top = this.ranked(message)[0];
    return top && top.confidence >= threshold ? top : null;
  }

  ranked(message: string): FaqMatch[] {
    if (terms(message).length === 0) return [];
    return this.search
      .search(message)
      .map((r) => ({ faq: this.faqs[r.id as number], confidence: this.selfScores[r.id as number] > 0 ? r.score / this.selfScores[r.id as number] : 0 }))
      .sort((a, b) => b.confidence - a.confidence);
  }
}
