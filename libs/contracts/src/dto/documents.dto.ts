import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { DOCUMENT_REFRESH_SCHEDULES, type DocumentRefreshSchedule } from '../events/documents';
import type { FieldError } from '../problem';

/** Largest `text` of a text document: 1 MiB (CONTRACT.md §11). */
export const DOCUMENT_TEXT_MAX_CHARS = 1024 * 1024;
/** Largest uploaded file: 10 MiB (CONTRACT.md §11). */
export const DOCUMENT_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** The file types an upload may have. */
export const DOCUMENT_FILE_TYPES = ['text/plain', 'text/markdown', 'text/html', 'application/pdf'] as const;
export type DocumentFileType = (typeof DOCUMENT_FILE_TYPES)[number];

/**
 * JSON body of `POST /api/v1/agents/{name}/documents`: `{title, text}` or `{title?, url}` (CONTRACT.md §11). Which of
 * the two, and that `title` comes with `text`, is one rule across fields: `documentBodyErrors`.
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

  /** A `url` document only: fetched again daily or weekly (an unchanged page costs one conditional request). */
  @IsOptional()
  @IsIn([...DOCUMENT_REFRESH_SCHEDULES], { message: `refresh must be one of: ${DOCUMENT_REFRESH_SCHEDULES.join(', ')}` })
  refresh?: DocumentRefreshSchedule;
}

/**
 * The rule across the fields of a valid `CreateDocumentBody`: `text` (with a `title`) or `url`, not both. The gateway
 * checks it before calling agent-service (a bad body never waits on the owning service) and agent-service again.
 */
export function documentBodyErrors(dto: CreateDocumentBody): FieldError[] {
  if (dto.text !== undefined && dto.url !== undefined) return [{ field: 'url', message: 'give either text or url, not both' }];
  if (dto.text === undefined && dto.url === undefined) return [{ field: 'text', message: 'text (with a title) or url is required' }];
  if (dto.text !== undefined && dto.title === undefined) return [{ field: 'title', message: 'title is required with text' }];
  if (dto.refresh !== undefined && dto.refresh !== 'off' && dto.url === undefined) return [{ field: 'refresh', message: 'refresh is for url documents only (a text is not fetched again)' }];
  return [];
}
