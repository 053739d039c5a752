import { IsIn, IsOptional } from 'class-validator';

/** `PUT /api/v1/agents/{name}?require_tests=pass` (CONTRACT.md §19). */
export class UpsertAgentQueryDto {
  /** `pass`: the agent's test set runs against the new body first; a failing case refuses the change (409). */
  @IsOptional()
  @IsIn(['pass'], { message: 'require_tests must be pass (or absent)' })
  require_tests?: 'pass';
}
