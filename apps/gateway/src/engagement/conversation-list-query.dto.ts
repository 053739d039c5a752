import { CONVERSATION_LABEL, CONVERSATION_SOURCES, CONVERSATION_STATES, MEMBER_ID_PATTERN, CHANNEL_KINDS, type ConversationSource, type ConversationState } from '@parley/contracts';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ListQueryDto } from '../http/list-query.dto';

const ASSIGNEE_RULE = 'assignee must be a team member id (usr_…), me or none';
const MENTIONED_RULE = 'mentioned must be a team member id (usr_…) or me';
const LABEL_RULE = 'label must be 1 to 40 lower-case letters, digits, "-" or "_"';
const CHANNEL_RULE = `channel must be a channel id (chn_…) or one of: ${CHANNEL_KINDS.join(', ')}`;

/** `GET /api/v1/conversations?state=&assignee=&channel=&q=&source=&limit=&cursor=`: the inbox (CONTRACT.md §12, §18). */
export class ConversationListQueryDto extends ListQueryDto {
  @IsOptional()
  @IsIn(CONVERSATION_STATES, { message: `state must be one of: ${CONVERSATION_STATES.join(', ')}` })
  state?: ConversationState;

  /** A member id, `me` (the signed-in member) or `none` (unassigned). */
  @IsOptional()
  @IsString({ message: ASSIGNEE_RULE })
  @Matches(new RegExp(`^(me|none|${MEMBER_ID_PATTERN.source.slice(1, -1)})$`), { message: ASSIGNEE_RULE })
  assignee?: string;

  /** A channel id, or a channel kind. */
  @IsOptional()
  @IsString({ message: CHANNEL_RULE })
  @Matches(new RegExp(`^(chn_[0-9A-HJKMNP-TV-Z]{26}|${CHANNEL_KINDS.join('|')})$`), { message: CHANNEL_RULE })
  channel?: string;

  /**
   * Words searched in what the customer and the business wrote (full-text, in the conversation's language, accents
   * and case ignored, a word's beginning while typing) and in the contact's name and number; every word must be found.
   */
  @IsOptional()
  @IsString()
  @Length(1, 200, { message: 'q must be 1 to 200 characters' })
  q?: string;

  /** `customer` (real customers only) or `playground` (the dashboard playground's only); both when absent. */
  @IsOptional()
  @IsIn(CONVERSATION_SOURCES, { message: `source must be one of: ${CONVERSATION_SOURCES.join(', ')}` })
  source?: ConversationSource;

  /** A team's conversations. */
  @IsOptional()
  @IsString({ message: 'team_id must be a team id (tea_…)' })
  @Matches(/^tea_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'team_id must be a team id (tea_…)' })
  team_id?: string;

  /** Conversations whose notes mention a member: `me` (the signed-in member) or a member id. */
  @IsOptional()
  @IsString({ message: MENTIONED_RULE })
  @Matches(new RegExp(`^(me|${MEMBER_ID_PATTERN.source.slice(1, -1)})$`), { message: MENTIONED_RULE })
  mentioned?: string;

  /** Conversations carrying this label. */
  @IsOptional()
  @IsString({ message: LABEL_RULE })
  @Matches(CONVERSATION_LABEL, { message: LABEL_RULE })
  label?: string;
}
