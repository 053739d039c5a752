import { sentences } from './instruction-facts';
import type { Language } from './language';
import type { RankedPassage } from './rank-knowledge';
import { analyze, closeConcept } from './text-analysis';

/** The most sentences an excerpt keeps. */
const MAX_SENTENCES = 3;

/**
 * What of a passage answers the question (CONTRACT.md §11: "shortened to what answers it"): a FAQ answer or an
 * instruction fact whole; a document passage cut to its best-matching sentence and the matching ones around it (a
 * sentence ending in ":" brings the list it opens), the whole passage when only its headings match. Markdown markup is
 * dropped: the reply is a chat message.
 */
export function answerExcerpt(passage: RankedPassage, question: string, language: Language): string {
  const text = plain(passage.text);
  if (passage.type !== 'document') return text;
  const asked = new Set(analyze(question, language, { query: true }).map((t) => (t.term.startsWith('#') ? t.term : (closeConcept(t.term, language) ?? t.term))));
  const parts = sentences(text);
  const scores = parts.map((s) => analyze(s, passage.language).filter((t) => asked.has(t.term)).length);
  const best = scores.indexOf(Math.max(...scores));
  if (scores[best] === 0) return parts.length <= MAX_SENTENCES ? text : parts.slice(0, MAX_SENTENCES).join(' ');
  let start = best;
  let end = best + 1;
  while (end < parts.length && end - start < MAX_SENTENCES && (scores[end] > 0 || parts[end - 1].endsWith(':'))) end++;
  while (start > 0 && end - start < MAX_SENTENCES && scores[start - 1] > 0) start--;
  const chosen = parts.slice(start, end);
  return chosen.join(chosen.some((s) => s.endsWith(':')) ? '\n' : ' ');
}

/** Chat text of Markdown: no heading marks, emphasis, code ticks or table rules; links as "text (url)". */
export function plain(markdown: string): string {
  return markdown
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/^\s*\|?[-:|\s]+\|[-:|\s]*$/gm, '')
    .replace(/^[ \t]*\|[ \t]*|[ \t]*\|[ \t]*$/gm, '')
    .replace(/[ \t]*\|[ \t]*/g, ' | ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
