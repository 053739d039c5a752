import { IsIn, IsOptional, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { CONVERSATION_STATES, type ConversationState } from '../rpc/responder.rpc';

/** A team member id (`usr_` + ULID, CONTRACT.md §1, §12). */
export const MEMBER_ID_PATTERN = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;
const MEMBER_ID_RULE = 'must be a team member id (usr_…)';

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
