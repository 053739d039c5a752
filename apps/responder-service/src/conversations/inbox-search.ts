import { isLanguage, type Language } from '../knowledge/language';

/** PostgreSQL's text-search configuration of each language the engine speaks (CONTRACT.md §11). */
export const SEARCH_CONFIGS: Record<Language, string> = { en: 'english', es: 'spanish', pt: 'portuguese', fr: 'french', de: 'german' };

/** The configuration a thread message's words are stemmed with: its conversation's language, `simple` until known. */
export function searchConfigOf(language: unknown): string {
  return isLanguage(language) ? SEARCH_CONFIGS[language] : 'simple';
}

/** Words of a query searched at most (each one must be found). */
export const MAX_SEARCH_TERMS = 8;
/** A term this long or longer also finds the words it starts ("warr" finds "warranty") while someone types. */
export const PREFIX_MIN_LENGTH = 3;
const MAX_TERM_LENGTH = 64;

/**
 * The words of a search box's query, lower-case: letters and digits of any script (so nothing the text-search parser
 * reads as an operator reaches it), at most MAX_SEARCH_TERMS, repeats once.
 */
export function searchTerms(q: string): string[] {
  const words = q.toLowerCase().normalize('NFC').match(/[\p{L}\p{Nd}]+/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, MAX_TERM_LENGTH)))].slice(0, MAX_SEARCH_TERMS);
}

/**
 * The tsquery of one term (`$n` its parameter): the word accent-free as written, a prefix when long enough, or its
 * stem in any of the five languages. A message's `search` holds its words and their stems in its conversation's
 * language, so "batteries" finds "battery" in an English conversation and "garantia" finds "garantías" in a Spanish one.
 * (Stemmed in a language a term is not, a word meets only that language's stems of other messages: few false finds.)
 */
export function termQuerySql(param: string, term: string): string {
  // Quoted, whatever unaccent makes of the word is one lexeme to the tsquery parser, never an operator.
  // (An empty lexeme is a tsquery syntax error: should unaccent ever make a letter nothing, the word as typed is used.)
  const simple =
    term.length >= PREFIX_MIN_LENGTH
      ? `to_tsquery('simple', quote_literal(coalesce(nullif(search_unaccent(${param}), ''), ${param})) || ':*')`
      : `plainto_tsquery('simple', search_unaccent(${param}))`;
  const stems = Object.values(SEARCH_CONFIGS).map((config) => `plainto_tsquery('${config}', search_unaccent(${param}))`);
  return `(${[simple, ...stems].join(' || ')})`;
}
