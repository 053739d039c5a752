import { IsOptional, IsString, Matches } from 'class-validator';

/** `GET /api/v1/agents/{name}/analytics?from=&to=&tz=` (CONTRACT.md §19); responder-service checks the zone and the range. */
export class AgentAnalyticsQueryDto {
  /** The first day, `YYYY-MM-DD` in `tz`; default 29 days before `to`. */
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'from must be a date as YYYY-MM-DD' })
  from?: string;

  /** The last day, included; default today in `tz`. */
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'to must be a date as YYYY-MM-DD' })
  to?: string;

  /** An IANA time zone the days are counted in; default UTC. */
  @IsOptional()
  @IsString()
  tz?: string;
}
