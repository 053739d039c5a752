import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

/** `GET /api/v1/contacts?q=&tag=&company_id=&opted_out=&limit=&cursor=` (CONTRACT.md §14). */
export class ContactListQueryDto extends ListQueryDto {
  /** Searched in name, email and number: any part of them, or a near spelling of a single word. */
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'q must be 1 to 200 characters' })
  q?: string;

  @IsOptional()
  @IsString()
  @Length(1, 50, { message: 'tag must be 1 to 50 characters' })
  tag?: string;

  @IsOptional()
  @Matches(/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'company_id must be a company id (cmp_…)' })
  company_id?: string;

  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'opted_out must be true or false' })
  opted_out?: boolean;
}
