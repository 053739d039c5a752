import { KNOWLEDGE_GAP_STATES, type KnowledgeGapState } from '@parley/contracts';
import { IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

/** `GET /api/v1/agents/{name}/gaps?state=&limit=&cursor=` (CONTRACT.md §19). */
export class GapListQueryDto extends ListQueryDto {
  /** `open` (the default), `closed` (answered) or `dismissed`. */
  @IsOptional()
  @IsIn([...KNOWLEDGE_GAP_STATES], { message: `state must be one of: ${KNOWLEDGE_GAP_STATES.join(', ')}` })
  state?: KnowledgeGapState;
}
