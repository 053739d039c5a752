import { IsOptional, IsString, Length } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

/** `GET /api/v1/canned-replies?q=&limit=&cursor=` (CONTRACT.md §18). */
export class CannedReplyListQueryDto extends ListQueryDto {
  /** Words found in the shortcut or the text (each of them; a leading `/` as typed in the composer is ignored). */
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'q must be 1 to 200 characters' })
  q?: string;
}
