import { DOCUMENT_FILE_TYPES, type DocumentFileType } from '@parley/contracts';
import { DocumentRejected } from './document-rejected';
import { pdfPageTexts } from './pdf-text';
import { htmlPassages, markdownPassages, type Passage } from './passages/passages';

/** A document's text beyond this is refused: its passages travel in one `document.changed` (see libs/contracts topics). */
export const DOCUMENT_TEXT_MAX_BYTES = 8 * 1024 * 1024;

const PDF_MAGIC = Buffer.from('%PDF-');

/** The format a declared content type names (`text/html; charset=utf-8` → `text/html`), or null when not supported. */
export function documentFormat(contentType: string | null | undefined): DocumentFileType | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const alias: Record<string, DocumentFileType> = { 'text/x-markdown': 'text/markdown', 'application/xhtml+xml': 'text/html' };
  const format = alias[type] ?? type;
  return (DOCUMENT_FILE_TYPES as readonly string[]).includes(format) ? (format as DocumentFileType) : null;
}

/** Why these bytes are not what their type says (a message for the `file` field), or null when they are. */
export function contentMismatch(format: DocumentFileType, bytes: Buffer): string | null {
  if (format === 'application/pdf') return bytes.subarray(0, 1024).includes(PDF_MAGIC) ? null : 'file is declared application/pdf but is not a PDF';
  if (bytes.subarray(0, 1024).includes(PDF_MAGIC)) return `file is a PDF but is declared ${format}`;
  if (bytes.includes(0)) return `file is declared ${format} but is binary`;
  return null;
}

/** A document's passages, from its bytes in its format. */
export async function extractPassages(format: DocumentFileType, bytes: Buffer): Promise<Passage[]> {
  const passages = format === 'application/pdf' ? markdownPassages(await pdfText(bytes)) : await textPassages(format, bytes);
  if (passages.length === 0) {
    throw new DocumentRejected(format === 'application/pdf' ? 'the PDF has no text layer (a scanned image?); upload its text instead' : 'the document has no text');
  }
  return passages;
}

async function textPassages(format: DocumentFileType, bytes: Buffer): Promise<Passage[]> {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  checkSize(text);
  return format === 'text/html' ? htmlPassages(text) : markdownPassages(text);
}

/** The text of every page, pages apart as paragraphs. */
async function pdfText(bytes: Buffer): Promise<string> {
  const text = (await pdfPageTexts(bytes)).map((page) => page.trim()).filter(Boolean).join('\n\n');
  checkSize(text);
  return text;
}

function checkSize(text: string): void {
  if (Buffer.byteLength(text) > DOCUMENT_TEXT_MAX_BYTES) throw new DocumentRejected('the document has more than 8 MiB of text');
}
