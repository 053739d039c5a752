import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

/** Largest `text` of a text document: 1 MiB (CONTRACT.md §11). */
export const DOCUMENT_TEXT_MAX_CHARS = 1024 * 1024;
/** Largest uploaded file: 10 MiB (CONTRACT.md §11). */
export const DOCUMENT_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** The file types an upload may have. */
export const DOCUMENT_FILE_TYPES = ['text/plain', 'text/markdown', 'text/html', 'application/pdf'] as const;
export type DocumentFileType = (typeof DOCUMENT_FILE_TYPES)[number];

/**
 * JSON body of `POST /api/v1/agents/{name}/documents`: `{title, text}` or `{title?, url}` (CONTRACT.md §11). Which of
 * the two, and that `title` comes with `text`, is checked by agent-service (one rule across fields).
 */
export class CreateDocumentBody {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  title?: string;

  @IsOptional()
  @IsString()
  @Length(1, DOCUMENT_TEXT_MAX_CHARS)
  text?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;
}
