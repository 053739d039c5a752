/**
 * The LLM cites the passages it answers from by id in square brackets, right after what they support:
 * "We open at 9 [faq_2]." or "[doc_01J…#3, faq_1]". The customer sees the answer without the markers; the ids are
 * checked against the passages the model was given and become the reply's sources.
 */

export interface CitedAnswer {
  /** The answer without its citation markers. */
  text: string;
  /** Ids cited that were given, in order of first citation. */
  cited: string[];
  /** Ids cited that were never given: an invented source. */
  unknown: string[];
}

// A bracket holding one or more comma-separated tokens without spaces, not a Markdown link's text.
const MARKER = /\s*\[([^[\]\s,]+(?:\s*,\s*[^[\]\s,]+)*)\](?!\()/g;

/**
 * A token shaped like a passage id (`faq-3`, `instruction-2`, `doc_01J…#4`: a word, then `-` or `#` and a number), so
 * "[sic]", "[10:00]" or "[2026-11-26T14:00]" stay prose.
 */
const looksLikeId = (token: string) => /^[a-z][\w.:]*[-#]\d+$/i.test(token);

export function readCitations(answer: string, given: ReadonlySet<string>): CitedAnswer {
  const cited: string[] = [];
  const unknown: string[] = [];
  const text = answer.replace(MARKER, (marker, inner: string) => {
    const tokens = inner.split(',').map((t) => t.trim());
    if (!tokens.every((t) => given.has(t) || looksLikeId(t))) return marker;
    for (const token of tokens) {
      const list = given.has(token) ? cited : unknown;
      if (!list.includes(token)) list.push(token);
    }
    return '';
  });
  return { text: text.replace(/[ \t]+([.,;:!?])/g, '$1').replace(/[ \t]{2,}/g, ' ').trim(), cited, unknown };
}
