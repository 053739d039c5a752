import type { Faq } from '@parley/contracts';
import { createHash } from 'node:crypto';
import type { DocumentPassage } from './document-passage';
import { instructionFacts } from './instruction-facts';
import { detectLanguage, type Language } from './language';
import { questionSentences } from './questions';
import { EXACT, analyze, closeConcept, editDistance, type Term } from './text-analysis';

/** What an agent knows (CONTRACT.md §11): its FAQs, its documents' passages, and the facts its instruction states. */
export interface KnowledgeSet {
  faqs: readonly Faq[];
  documents?: readonly DocumentPassage[];
  instruction: string;
}

export type KnowledgeType = 'faq' | 'document' | 'instruction';

/** One piece of knowledge ranked for a question. */
export interface RankedPassage {
  type: KnowledgeType;
  /** `faq-1` (position in the agent's FAQs, from 1), the document passage's id, or `instruction-1` (sentence, from 1). */
  id: string;
  /** The FAQ's question, the document's title and headings (`Prices › Whitening`), or `Instruction`. */
  title: string;
  /** The whole passage: the FAQ's answer, the document passage, the instruction's sentence. */
  text: string;
  /** The language the passage is written in. */
  language: Language;
  /**
   * How much of the question the passage covers, 0..1: the share of the question's terms (weighted by 1 + their idf in
   * this agent's knowledge; a word the knowledge never uses weighs as much as its rarest) the passage contains.
   */
  score: number;
}

/**
 * A passage answers the question when it covers at least this share of it. Measured with `npm run eval`
 * (docs/agent-eval.md, "The answer threshold"): the unknown questions customers ask ("can you fix my car brakes" to a
 * dental clinic, "how much is a car wash") share a word or two with some passage and score at most 0.44; the questions
 * the knowledge answers, typos and slang included, score 0.57 and up. The threshold sits in that gap, nearer the answers:
 * below it the agent says it does not know and offers a person, because a confident wrong answer is the worst outcome.
 */
export const ANSWER_THRESHOLD = 0.55;

/**
 * The agent's knowledge ranked for a question, best first (only passages sharing a term with it): FAQs, document
 * passages and instruction facts in one ranking, each matched in the language it is written in. Pure and deterministic.
 * The ones at or above ANSWER_THRESHOLD answer the question.
 */
export function rankKnowledge(query: string, knowledge: KnowledgeSet, language: Language): RankedPassage[] {
  return knowledgeIndex(knowledge).rank(query, language);
}

/** The passages that answer the question (score ≥ ANSWER_THRESHOLD), best first. */
export function answeringPassages(query: string, knowledge: KnowledgeSet, language: Language): RankedPassage[] {
  return rankKnowledge(query, knowledge, language).filter((p) => p.score >= ANSWER_THRESHOLD);
}

/** A term of the question: what it costs the coverage, and the share of that cost a passage holding it earns. */
export interface QueryTerm extends Term {
  cost: number;
  credit: number;
}

interface Unit {
  type: KnowledgeType;
  id: string;
  title: string;
  text: string;
  language: Language;
  /** Term → occurrences, the title's (FAQ question, headings) counted twice: they say what the passage is about. */
  terms: Map<string, number>;
  /** A FAQ's question terms: a question matching only its answer's words is less surely what it answers. */
  questionTerms: Set<string> | null;
  length: number;
}

// A month is when, not what ("do you accept insurance on 3 December?"): never a word the knowledge must have.
const MONTHS =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|janeiro|fevereiro|marco|março|maio|junho|julho|setembro|outubro|novembro|dezembro|janvier|fevrier|février|mars|avril|mai|juin|juillet|aout|août|septembre|octobre|novembre|decembre|décembre|januar|februar|marz|märz|juni|juli|oktober|dezember)$/i;

// BM25's usual constants; the BM25 score orders passages that cover a question equally well.
const K1 = 1.2;
const B = 0.75;
const TITLE_BOOST = 2;
/** The characters of a text its language is detected from. */
const LANGUAGE_SAMPLE_CHARS = 400;
/** How much a concept word's own stem (weightless in the coverage) adds to the BM25 that orders ties. */
const EXACT_WEIGHT = 0.2;
/** A FAQ's answer word counts this much of its question's: "opening hours" is not what "emergency slots all day" answers. */
const FAQ_ANSWER_ONLY = 0.8;
/** A misspelt word matched to a known one counts a little less. */
const FUZZY_WEIGHT = 0.8;

/** A piece of the agent's knowledge as the index holds it: what the model reads too (semantics/semantic-index.ts). */
export interface KnowledgePassage {
  type: KnowledgeType;
  id: string;
  title: string;
  text: string;
  language: Language;
}

export class KnowledgeIndex {
  private readonly units: Unit[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly vocabulary: string[];
  /** The passages by the language they are written in: a question is stemmed like each language's passages. */
  private readonly unitsByLanguage = new Map<Language, Unit[]>();

  constructor(knowledge: KnowledgeSet) {
    // Language detection costs about a millisecond per few hundred characters: a sample of each text is enough, and a
    // document's passages share its language (an agent with hundreds of passages builds its index in well under a second).
    const detect = (text: string, previous?: Language) => detectLanguage(text.slice(0, LANGUAGE_SAMPLE_CHARS), previous);
    const agentLanguage = detect(`${knowledge.instruction}\n${knowledge.faqs.map((f) => `${f.question} ${f.answer}`).join('\n')}`);
    const documentLanguages = new Map<string, Language>();
    const documentLanguage = (p: DocumentPassage) => {
      let language = documentLanguages.get(p.documentId);
      if (!language) {
        language = detect(`${p.title}. ${p.text}`, agentLanguage);
        documentLanguages.set(p.documentId, language);
      }
      return language;
    };
    const unit = (type: KnowledgeType, id: string, title: string, text: string, titleForTerms: string, language: Language): Unit => {
      const terms = new Map<string, number>();
      for (const { term } of analyze(text, language)) terms.set(term, (terms.get(term) ?? 0) + 1);
      for (const { term } of analyze(titleForTerms, language)) terms.set(term, (terms.get(term) ?? 0) + TITLE_BOOST);
      const questionTerms = type === 'faq' ? new Set(analyze(titleForTerms, language).map((t) => t.term)) : null;
      return { type, id, title, text, language, terms, questionTerms, length: [...terms.values()].reduce((a, b) => a + b, 0) };
    };
    const instructionLanguage = detect(knowledge.instruction, agentLanguage);
    this.units = [
      ...knowledge.faqs.map((f, i) => unit('faq', `faq-${i + 1}`, f.question, f.answer, f.question, detect(`${f.question} ${f.answer}`, agentLanguage))),
      ...(knowledge.documents ?? []).map((p) =>
        unit('document', p.id, documentPassageTitle(p), p.text, [p.title, ...p.headings].join('. '), documentLanguage(p)),
      ),
      ...instructionFacts(knowledge.instruction).map((s, i) => unit('instruction', `instruction-${i + 1}`, 'Instruction', s, '', instructionLanguage)),
    ];
    for (const u of this.units) for (const term of u.terms.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    for (const u of this.units) this.unitsByLanguage.set(u.language, [...(this.unitsByLanguage.get(u.language) ?? []), u]);
    this.averageLength = this.units.reduce((sum, u) => sum + u.length, 0) / Math.max(1, this.units.length);
    this.vocabulary = [...this.documentFrequency.keys()].filter((t) => !t.startsWith('#') && !t.startsWith(EXACT));
  }

  /**
   * The question's words that no passage of the knowledge uses, even misspelt or as part of a compound ("medicaid" to
   * a clinic that lists its insurers, "chien" to a hotel that never mentions dogs): what the knowledge cannot speak to.
   */
  unknownWords(query: string, language: Language, knowledgeLanguage: Language = language): string[] {
    return this.queryTerms(query, language, knowledgeLanguage)
      .filter((t) => t.weight >= 1 && t.credit === 1 && /^\p{L}{4,}$/u.test(t.term) && !this.documentFrequency.has(t.term) && !MONTHS.test(t.word ?? ''))
      .map((t) => t.word ?? t.term);
  }

  /** Every piece of the knowledge, in order: FAQs, document passages, instruction facts. */
  get passages(): KnowledgePassage[] {
    return this.units.map(({ type, id, title, text, language }) => ({ type, id, title, text, language }));
  }

  /**
   * The passages for a message, each with its best score over the whole message and each question in it: the customer's
   * question decides, not the context around it ("is there an elevator? my knees are bad"). A question naming no topic
   * of its own ("how much?", "c'est combien ?") asks about the sentence before it: it is read with the whole message.
   */
  rank(query: string, language: Language): RankedPassage[] {
    const best = new Map<string, RankedPassage & { bm25: number }>();
    const ownTopic = (question: string) => analyze(question, language, { query: true }).some((t) => t.weight > 0 && !t.term.startsWith('#'));
    for (const asked of [query, ...questionSentences(query).filter(ownTopic)]) {
      for (const passage of this.rankOne(asked, language)) {
        const seen = best.get(passage.id);
        if (!seen || passage.score > seen.score) best.set(passage.id, passage);
      }
    }
    return [...best.values()].sort((a, b) => b.score - a.score || b.bm25 - a.bm25).map(({ bm25: _, ...passage }) => passage);
  }

  private rankOne(query: string, language: Language): (RankedPassage & { bm25: number })[] {
    const ranked: (RankedPassage & { bm25: number })[] = [];
    for (const [unitLanguage, units] of this.unitsByLanguage) {
      const asked = this.queryTerms(query, language, unitLanguage);
      const total = asked.reduce((sum, t) => sum + t.cost, 0);
      if (total > 0) ranked.push(...this.score(units, asked, total));
    }
    return ranked;
  }

  private score(units: Unit[], asked: QueryTerm[], total: number): (RankedPassage & { bm25: number })[] {
    const ranked: (RankedPassage & { bm25: number })[] = [];
    for (const u of units) {
      let covered = 0;
      let bm25 = 0;
      for (const { term, cost, credit, weight } of asked) {
        const tf = u.terms.get(term);
        if (!tf) continue;
        covered += cost * credit * (u.questionTerms && !u.questionTerms.has(term) ? FAQ_ANSWER_ONLY : 1);
        bm25 += (weight || EXACT_WEIGHT) * this.idf(term) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * u.length) / this.averageLength)));
      }
      if (covered > 0) ranked.push({ type: u.type, id: u.id, title: u.title, text: u.text, language: u.language, score: covered / total, bm25 });
    }
    return ranked;
  }

  /**
   * The question's terms, each once, with what each costs the coverage (its weight × 1 + idf) and the share of that a
   * passage holding it earns: a misspelt word replaced by the known word it is an edit or two from earns less, and
   * costs what the unknown word costs. A word the knowledge never uses stays: it is what the knowledge cannot answer.
   */
  queryTerms(query: string, language: Language, knowledgeLanguage: Language = language): QueryTerm[] {
    const terms = new Map<string, QueryTerm>();
    for (const t of analyze(query, language, { query: true, stemLanguage: knowledgeLanguage })) {
      const known = this.documentFrequency.has(t.term) || t.term.startsWith(EXACT) ? { ...t, credit: 1 } : this.closeTerm(t, language);
      const term: QueryTerm = { ...known, cost: known.weight * this.informativeness(t.term) };
      const seen = terms.get(term.term);
      if (!seen || seen.cost < term.cost) terms.set(term.term, term);
    }
    return [...terms.values()];
  }

  /**
   * The longest known word a long unknown one ends or starts with: a compound ("Zahnreinigung" → "reinigung",
   * "Privatpatienten" → "privat"), a separable verb ("auschecken" → "check") or a run-together spelling.
   */
  private knownPart(term: string): string | null {
    if (term.length < 8) return null;
    let best: string | null = null;
    for (const known of this.vocabulary) {
      if (known.length < 4 || (best && known.length <= best.length)) continue;
      // A compound's head is its end ("Zahn|reinigung", "aus|checken"); a word only starting like a known one must
      // leave a word of its own ("privat|patienten", not "medic|aid").
      if ((term.endsWith(known) && known.length <= term.length - 3) || (term.startsWith(known) && known.length <= term.length - 4)) best = known;
    }
    return best;
  }

  /** The idf of a term; one the knowledge never uses weighs as much as the rarest it does. */
  /**
   * What a term of the question weighs in the coverage score: 1 + idf, so that the words this agent's knowledge uses
   * everywhere ("opening hours" to a shop whose every passage has times) still count for what the customer asks.
   */
  informativeness(term: string): number {
    return 1 + this.idf(term);
  }

  idf(term: string): number {
    const n = this.units.length;
    const df = Math.max(1, this.documentFrequency.get(term) ?? 0);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private closeTerm(t: Term, language: Language): Term & { credit: number } {
    if (t.term.startsWith('#')) return { ...t, credit: 1 };
    // A number or a two-letter scrap ("4", "ok") the knowledge lacks says less than a real word it lacks.
    if (/\d/.test(t.term) || t.term.length < 3) return { ...t, weight: t.weight / 2, credit: 1 };
    if (t.term.length < 4) return { ...t, credit: 1 };
    const concept = closeConcept(t.term, language);
    if (concept && this.documentFrequency.has(concept)) return { term: concept, weight: t.weight, credit: FUZZY_WEIGHT };
    const part = this.knownPart(t.term);
    if (part) return { term: part, weight: t.weight, credit: FUZZY_WEIGHT };
    const maxEdits = t.term.length >= 7 ? 2 : 1;
    let best: { term: string; edits: number } | null = null;
    for (const known of this.vocabulary) {
      // Typos rarely hit the first letter: "xray" is not "tray".
      if (Math.abs(known.length - t.term.length) > maxEdits || known.length < 4 || known[0] !== t.term[0]) continue;
      const edits = editDistance(known, t.term, maxEdits);
      if (edits <= maxEdits && (!best || edits < best.edits || (edits === best.edits && known < best.term))) best = { term: known, edits };
    }
    return best ? { term: best.term, weight: t.weight, credit: FUZZY_WEIGHT } : { ...t, credit: 1 };
  }
}

// An agent answers many messages from one knowledge set: keep one index per set (bounded, oldest dropped).
const indexes = new Map<string, KnowledgeIndex>();
const MAX_CACHED = 500;

/** A document passage's title as the knowledge shows it: the document's, then its headings (`Prices › Whitening`). */
export function documentPassageTitle(p: Pick<DocumentPassage, 'title' | 'headings'>): string {
  return [p.title, ...p.headings].join(' › ');
}

/** What identifies a knowledge set's content: the key its indexes (lexical and by meaning) are cached under. */
export function knowledgeKey(knowledge: KnowledgeSet): string {
  const hash = createHash('sha256').update(knowledge.instruction).update('\0').update(JSON.stringify(knowledge.faqs));
  for (const p of knowledge.documents ?? []) hash.update('\0').update(p.id).update('\0').update(p.title).update(p.headings.join('\0')).update(p.text);
  return hash.digest('base64');
}

export function knowledgeIndex(knowledge: KnowledgeSet, key = knowledgeKey(knowledge)): KnowledgeIndex {
  let index = indexes.get(key);
  if (!index) {
    if (indexes.size >= MAX_CACHED) indexes.delete(indexes.keys().next().value!);
    index = new KnowledgeIndex(knowledge);
    indexes.set(key, index);
  }
  return index;
}
