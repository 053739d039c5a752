import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { CONVERSATION_STATES, type ConversationState } from '../rpc/responder.rpc';

/** A team member id (`usr_` + ULID, CONTRACT.md §1, §12). */
export const MEMBER_ID_PATTERN = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;
const MEMBER_ID_RULE = 'must be a team member id (usr_…)';

/** The members a note mentions (`@usr_…`), in order of first mention, each once. */
export function mentionsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/@(usr_[0-9A-HJKMNP-TV-Z]{26})/g)].map((m) => m[1]))];
}

/** A conversation label: lower-case letters, digits, `-` and `_` (`vip`, `refund-request`). */
export const CONVERSATION_LABEL = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const LABELS_RULE = 'labels must be a list of at most 20 different labels, each 1 to 40 lower-case letters, digits, "-" or "_"';

/** Body of `PATCH /api/v1/conversations/{id}` (CONTRACT.md §12): take over, give back, close; assign or unassign. */
export class UpdateConversationBody {
  @IsOptional()
  @IsIn(CONVERSATION_STATES, { message: `state must be one of: ${CONVERSATION_STATES.join(', ')}` })
  state?: ConversationState;

  /** A team member of the tenant, or null to unassign. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: `assignee ${MEMBER_ID_RULE} or null` })
  @Matches(MEMBER_ID_PATTERN, { message: `assignee ${MEMBER_ID_RULE} or null` })
  assignee?: string | null;

  /** The conversation's labels, replacing those it had ([] removes them all). */
  @IsOptional()
  @IsArray({ message: LABELS_RULE })
  @ArrayMaxSize(20, { message: LABELS_RULE })
  @ArrayUnique({ message: LABELS_RULE })
  @Matches(CONVERSATION_LABEL, { each: true, message: LABELS_RULE })
  labels?: string[];

  /** Moves it to a team (its routing then hands it to one of that team's members), or null for none. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: 'team_id must be a team id (tea_…) or null' })
  @Matches(/^tea_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'team_id must be a team id (tea_…) or null' })
  team_id?: string | null;
}

/** Body of `POST /api/v1/conversations/{id}/messages`: a person's reply to the customer. */
export class ConversationReplyBody {
  @IsString({ message: 'message must be a string of 1 to 4096 characters' })
  @Length(1, 4096, { message: 'message must be a string of 1 to 4096 characters' })
  message!: string;
}

/** Body of `POST /api/v1/conversations/{id}/notes`: an internal note, never sent to the customer. */
export class ConversationNoteBody {
  @IsString({ message: 'text must be a string of 1 to 4096 characters' })
  @Length(1, 4096, { message: 'text must be a string of 1 to 4096 characters' })
  text!: string;
}
