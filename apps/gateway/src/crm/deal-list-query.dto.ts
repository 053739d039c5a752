import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

/** `GET /api/v1/deals?pipeline_id=&stage=&contact_id=&limit=&cursor=` (CONTRACT.md §14). */
export class DealListQueryDto extends ListQueryDto {
  @IsOptional()
  @Matches(/^pip_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'pipeline_id must be a pipeline id (pip_…)' })
  pipeline_id?: string;

  @IsOptional()
  @IsString()
  @Length(1, 40, { message: 'stage must be 1 to 40 characters' })
  stage?: string;

  @IsOptional()
  @Matches(/^ctc_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'contact_id must be a contact id (ctc_…)' })
  contact_id?: string;
}
