import { IsIn, IsOptional, IsString, Length } from 'class-validator';

const ANSWER_RULE = 'answer must be a string of 1 to 4000 characters (an FAQ answer)';
const NOTE_RULE = 'note must be a string of at most 1000 characters';

/** Body of `POST /api/v1/agents/{name}/gaps/{id}/answer` (CONTRACT.md §19): the answer becomes an FAQ of the agent. */
export class AnswerGapBody {
  @IsString({ message: ANSWER_RULE })
  @Length(1, 4000, { message: ANSWER_RULE })
  answer!: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

export const FEEDBACK_VERDICTS = ['right', 'wrong'] as const;

/** Body of `POST /api/v1/conversations/{id}/messages/{message_id}/feedback` (CONTRACT.md §19). */
export class MessageFeedbackBody {
  @IsIn([...FEEDBACK_VERDICTS], { message: 'verdict must be one of: right, wrong' })
  verdict!: (typeof FEEDBACK_VERDICTS)[number];

  @IsOptional()
  @IsString({ message: NOTE_RULE })
  @Length(0, 1000, { message: NOTE_RULE })
  note?: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
