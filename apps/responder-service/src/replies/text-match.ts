import type { Faq } from '@parley/contracts';

// Words that carry no topic; without them "what are your opening hours" and "opening hours?" are the same question.
const STOPWORDS = new Set(
  (
    'a an the and or but if of to in on at by for from with about as into than then so ' +
    'i me my we our us you your yours he she it its they them their this that these those ' +
    'is are was were be been being am do does did done have has had can could would should will shall may might must ' +
    'what which who whom whose when where why how there here please hi hello hey thanks thank ' +
    'any some all no not just also too very much many more most tell know want need like get'
  ).split(' '),
);

/** Lower-cased, accent-free word stems of a text, minus stopwords. */
export function keywords(text: string): Set<string> {
  return new Set(keywordList(text));
}

/** The same keywords in order, repeats kept (what a ranking function counts). */
export function keywordList(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !STOPWORDS.has(w));
  return words.map(stem);
}

/** A deliberately small stemmer: plural and -ing/-ed forms meet their base ("hours"/"hour", "opening"/"open"). */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** A FAQ counts as matched when the message covers at least half of its question's keywords. */
const MIN_COVERAGE = 0.5;

/**
 * The FAQ whose question the message matches best, by keyword overlap (share of the question's keywords the
 * message contains, then the number shared, then the FAQ's position), or null when none matches well enough.
 */
export function bestFaq(faqs: readonly Faq[], message: string): Faq | null {
  const said = keywords(message);
  if (said.size === 0) return null;
  let best: { faq: Faq; coverage: number; shared: number } | null = null;
  for (const faq of faqs) {
    const asked = keywords(faq.question);
    if (asked.size === 0) continue;
    let shared = 0;
    for (const word of asked) if (said.has(word)) shared++;
    const coverage = shared / asked.size;
    if (shared === 0 || coverage < MIN_COVERAGE) continue;
    if (!best || coverage > best.coverage || (coverage === best.coverage && shared > best.shared)) best = { faq, coverage, shared };
  }
  return best?.faq ?? null;
}
