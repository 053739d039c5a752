import { IsIn, IsOptional, IsRFC3339, IsString, Length } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

export const DIRECTIONS = ['outbound', 'inbound'] as const;

/** `GET /api/v1/messages?direction=&to=&from=&since=&limit=&cursor=` (CONTRACT.md §4). */
export class MessageListQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(DIRECTIONS, { message: `direction must be one of: ${DIRECTIONS.join(', ')}` })
  direction?: (typeof DIRECTIONS)[number];

  @IsOptional()
  @IsString()
  @Length(1, 64)
  to?: string;

  @IsOptional()
  @IsString()
  @Length(1, 64)
  from?: string;

  @IsOptional()
  @IsRFC3339({ message: 'since must be an RFC 3339 timestamp such as 2025-01-31T12:00:00Z' })
  since?: string;
}
