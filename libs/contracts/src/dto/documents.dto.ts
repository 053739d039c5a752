import { IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { DOCUMENT_REFRESH_SCHEDULES, type DocumentRefreshSchedule } from '../events/documents';
import type { FieldError } from '../problem';

/** Largest `text` of a text document: 1 MiB (CONTRACT.md §11). */
export const DOCUMENT_TEXT_MAX_CHARS = 1024 * 1024;
/** The most pages one sitemap import adds (CONTRACT.md §19), and its default. */
export const SITEMAP_MAX_PAGES = 500;
export const SITEMAP_DEFAULT_PAGES = 100;
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

  /** A sitemap (XML, a sitemap index, or text): every page under it becomes a `url` document (CONTRACT.md §19). */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  sitemap_url?: string;

  /** With `sitemap_url`: the most pages it adds (default 100). */
  @IsOptional()
  @IsInt({ message: `max_pages must be a whole number from 1 to ${SITEMAP_MAX_PAGES}` })
  @Min(1, { message: `max_pages must be a whole number from 1 to ${SITEMAP_MAX_PAGES}` })
  @Max(SITEMAP_MAX_PAGES, { message: `max_pages must be a whole number from 1 to ${SITEMAP_MAX_PAGES}` })
  max_pages?: number;

  /** A `url` or sitemap document only: fetched again daily or weekly (an unchanged page costs one conditional request). */
  @IsOptional()
  @IsIn([...DOCUMENT_REFRESH_SCHEDULES], { message: `refresh must be one of: ${DOCUMENT_REFRESH_SCHEDULES.join(', ')}` })
  refresh?: DocumentRefreshSchedule;
}

/**
 * The rule across the fields of a valid `CreateDocumentBody`: `text` (with a `title`) or `url`, not both. The gateway
 * checks it before calling agent-service (a bad body never waits on the owning service) and agent-service again.
 */
export function documentBodyErrors(dto: CreateDocumentBody): FieldError[] {
  if (dto.sitemap_url !== undefined) {
    if (dto.text !== undefined || dto.url !== undefined) return [{ field: 'sitemap_url', message: 'give one of text, url or sitemap_url' }];
    if (dto.title !== undefined) return [{ field: 'title', message: 'a sitemap names no title: each page is titled by its address' }];
    return [];
  }
  if (dto.max_pages !== undefined) return [{ field: 'max_pages', message: 'max_pages goes with sitemap_url' }];
  if (dto.text !== undefined && dto.url !== undefined) return [{ field: 'url', message: 'give either text or url, not both' }];
  if (dto.text === undefined && dto.url === undefined) return [{ field: 'text', message: 'text (with a title), url or sitemap_url is required' }];
  if (dto.text !== undefined && dto.title === undefined) return [{ field: 'title', message: 'title is required with text' }];
  if (dto.refresh !== undefined && dto.refresh !== 'off' && dto.url === undefined) return [{ field: 'refresh', message: 'refresh is for url and sitemap documents only (a text is not fetched again)' }];
  return [];
}
