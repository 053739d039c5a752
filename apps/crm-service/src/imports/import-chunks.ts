/**
 * A CSV import's file is kept in pages of this many characters (`contact_import_chunks`), never as one value: the job
 * row, the worker and every statement hold a page at a time (issue 19), whatever the file's size. A page ends anywhere
 * (mid-row, mid-quote): the worker's parser reads the pages as one stream.
 */
export const IMPORT_CHUNK_CHARS = 64 * 1024;

/**
 * The text cut into pages of at most `size` characters (a UTF-16 pair is never cut in two: each page is valid text for
 * PostgreSQL). Each page is a slice of `text`, which is not copied.
 */
export function* importChunks(text: string, size = IMPORT_CHUNK_CHARS): Generator<string> {
  if (size < 2) throw new RangeError('a page holds at least 2 characters');
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    // a page ending on a high surrogate would leave its low one to the next: end one character sooner
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    yield text.slice(at, end);
    at = end;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
