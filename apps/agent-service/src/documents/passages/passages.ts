import { convert, type FormatCallback } from 'html-to-text';
import { Lexer, type Token, type Tokens } from 'marked';

/**
 * Documents → passages (CONTRACT.md §11): each passage keeps the headings it sits under and holds about 80–300 words,
 * split at paragraphs, then at sentences. Pure functions with no service dependencies, so the agent evaluation
 * (tools/eval) can chunk its documents exactly as agent-service does.
 */
export interface Passage {
  /** The headings above the passage, outermost first (`["Prices", "Whitening"]`); empty when there are none. */
  headings: string[];
  text: string;
}

/** A passage grows to at least this many words when its section has them ... */
export const PASSAGE_MIN_WORDS = 80;
/** ... then stops growing past this many ... */
const PASSAGE_TARGET_WORDS = 200;
/** ... and never beyond this many. */
export const PASSAGE_MAX_WORDS = 300;

/** Plain text or Markdown. */
export function markdownPassages(markdown: string): Passage[] {
  return groupIntoPassages(markdownBlocks(markdown));
}

/** An HTML page: its headings keep their structure, scripts, styles, navigation and images are dropped. */
export function htmlPassages(html: string): Passage[] {
  return markdownPassages(htmlToMarkdownText(html));
}

/** A block of text (a paragraph, a list, a table) under its headings. */
interface Block {
  headings: string[];
  text: string;
}

function markdownBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const trail: { depth: number; text: string }[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'heading') {
        const heading = token as Tokens.Heading;
        while (trail.length > 0 && trail[trail.length - 1].depth >= heading.depth) trail.pop();
        const text = normalize(inlineText(heading.tokens));
        if (text) trail.push({ depth: heading.depth, text });
      } else if (token.type === 'blockquote') {
        visit((token as Tokens.Blockquote).tokens);
      } else {
        const text = blockText(token);
        if (text) blocks.push({ headings: trail.map((h) => h.text), text });
      }
    }
  };
  visit(new Lexer().lex(markdown));
  return blocks;
}

/** The readable text of one block token (empty for spacing, rules and the like). */
function blockText(token: Token): string {
  switch (token.type) {
    case 'paragraph':
    case 'text':
      return normalize(inlineText((token as Tokens.Paragraph).tokens ?? []) || (token as Tokens.Text).text);
    case 'list':
      return (token as Tokens.List).items
        .map((item) => normalize(item.tokens.map((t) => (t.type === 'list' ? blockText(t) : inlineText('tokens' in t && t.tokens ? t.tokens : []) || ('text' in t ? t.text : ''))).join(' ')))
        .filter(Boolean)
        .map((line) => `- ${line}`)
        .join('\n');
    case 'table': {
      const table = token as Tokens.Table;
      const header = table.header.map((cell) => normalize(inlineText(cell.tokens)));
      return table.rows
        .map((row) => row.map((cell, i) => (header[i] ? `${header[i]}: ${normalize(inlineText(cell.tokens))}` : normalize(inlineText(cell.tokens)))).join('; '))
        .join('\n');
    }
    case 'code':
      return (token as Tokens.Code).text.trim();
    case 'html':
      return normalize(convert((token as Tokens.HTML).text, { wordwrap: false }));
    default:
      return '';
  }
}

/** The text of inline tokens: emphasis, links and code spans become their words. */
function inlineText(tokens: Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === 'br') return ' ';
      if (t.type === 'image') return '';
      if ('tokens' in t && t.tokens && t.tokens.length > 0) return inlineText(t.tokens);
      if (t.type === 'html') return '';
      return 'text' in t ? decodeEntities(t.text) : '';
    })
    .join('');
}

/** marked keeps `&amp;` and friends escaped in inline text; html-to-text decodes them properly. */
function decodeEntities(text: string): string {
  return text.includes('&') ? convert(text, { wordwrap: false }) : text;
}

/** Collapses runs of spaces and tabs within lines and trims. */
function normalize(text: string): string {
  return text
    .split('\n')
    .map((line) => line.split(/[ \t\u00a0]+/).filter(Boolean).join(' '))
    .filter(Boolean)
    .join('\n')
    .trim();
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Consecutive blocks under the same headings become passages of PASSAGE_MIN_WORDS–PASSAGE_MAX_WORDS words; a new
 * heading always starts a new passage (a short section stays short, so its heading still names it).
 */
function groupIntoPassages(blocks: Block[]): Passage[] {
  const passages: Passage[] = [];
  let current: { headings: string[]; parts: string[]; words: number } | null = null;
  const flush = () => {
    if (current && current.parts.length > 0) passages.push({ headings: current.headings, text: current.parts.join('\n') });
    current = null;
  };
  for (const block of blocks) {
    for (const piece of splitLongText(block.text)) {
      const words = wordCount(piece);
      const sameSection = current !== null && sameHeadings(current.headings, block.headings);
      const full = current !== null && (current.words + words > PASSAGE_MAX_WORDS || (current.words >= PASSAGE_MIN_WORDS && current.words + words > PASSAGE_TARGET_WORDS));
      if (!sameSection || current === null || full) {
        flush();
        current = { headings: block.headings, parts: [], words: 0 };
      }
      current.parts.push(piece);
      current.words += words;
    }
  }
  flush();
  return passages;
}

/** A block longer than a passage, cut at sentence ends (a sentence longer than a passage, at words). */
function splitLongText(text: string): string[] {
  if (wordCount(text) <= PASSAGE_MAX_WORDS) return [text];
  const pieces: string[] = [];
  let piece: string[] = [];
  let words = 0;
  for (const sentence of sentences(text)) {
    for (const part of splitByWords(sentence)) {
      const n = wordCount(part);
      if (words > 0 && words + n > PASSAGE_MAX_WORDS) {
        pieces.push(piece.join(' '));
        piece = [];
        words = 0;
      }
      piece.push(part);
      words += n;
    }
  }
  if (piece.length > 0) pieces.push(piece.join(' '));
  return pieces;
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

function sentences(text: string): string[] {
  return [...sentenceSegmenter.segment(text)].map((s) => s.segment.trim()).filter(Boolean);
}

function splitByWords(sentence: string): string[] {
  const words = sentence.split(/\s+/).filter(Boolean);
  if (words.length <= PASSAGE_MAX_WORDS) return [sentence];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += PASSAGE_MAX_WORDS) out.push(words.slice(i, i + PASSAGE_MAX_WORDS).join(' '));
  return out;
}

function sameHeadings(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((h, i) => h === b[i]);
}

/** HTML as text whose headings are Markdown headings, so one chunker serves both. */
function htmlToMarkdownText(html: string): string {
  const heading = (level: number) => ({ selector: `h${level}`, format: 'markdownHeading', options: { level } });
  return convert(html, {
    wordwrap: false,
    formatters: { markdownHeading },
    selectors: [
      heading(1),
      heading(2),
      heading(3),
      heading(4),
      heading(5),
      heading(6),
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'nav', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'ul', options: { itemPrefix: '- ' } },
      { selector: 'table', format: 'dataTable' },
    ],
  });
}

const markdownHeading: FormatCallback = (elem, walk, builder, options) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addLiteral(`${'#'.repeat(Number(options.level ?? 1))} `);
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 2 });
};
