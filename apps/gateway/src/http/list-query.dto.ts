import { CURSOR_ERROR } from '@parley/service-kit';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;

/**
 * `?limit=&cursor=` of every list (CONTRACT.md §1). The cursor is opaque here: the service that owns the list reads it
 * back with its `ListCursors` and answers any cursor it did not hand out for that list with a 400 naming `cursor`.
 */
export class ListQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number from 1 to 100' })
  @Min(1, { message: 'limit must be a whole number from 1 to 100' })
  @Max(100, { message: 'limit must be a whole number from 1 to 100' })
  limit: number = DEFAULT_PAGE_SIZE;

  @IsOptional()
  @IsString()
  @Length(1, 200, { message: CURSOR_ERROR.message })
  cursor?: string;
}

export function pageOf(query: ListQueryDto): { limit: number; cursor: string | null } {
  return { limit: query.limit, cursor: query.cursor ?? null };
}
