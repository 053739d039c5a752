import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, Length, ValidateNested, registerDecorator } from 'class-validator';
import { SKILLS, type Skill } from '../events/agents';

const MESSAGE_RULE = 'message must be a string of 1 to 4096 characters (what a customer writes)';
const CONTAINS_RULE = 'expect.contains must be a string of 1 to 500 characters';

/** What a test case expects of the agent's reply (CONTRACT.md §19); every key given must hold. */
export class AgentTestExpectationDto {
  /** The reply contains this text (case and accents aside). */
  @IsOptional()
  @IsString({ message: CONTAINS_RULE })
  @Length(1, 500, { message: CONTAINS_RULE })
  contains?: string;

  /** The skill that answered (`faq_responder`, `lead_capture`, `appointment_booking`). */
  @IsOptional()
  @IsIn([...SKILLS], { message: `expect.skill must be one of: ${SKILLS.join(', ')}` })
  skill?: Skill;

  /** The agent hands the conversation to a person (true) or not (false). */
  @IsOptional()
  @IsBoolean({ message: 'expect.handoff must be true or false' })
  handoff?: boolean;

  /** The agent says it does not know (true) or answers (false). */
  @IsOptional()
  @IsBoolean({ message: 'expect.no_answer must be true or false' })
  no_answer?: boolean;
}

/** Body of `POST /api/v1/agents/{name}/tests` (CONTRACT.md §19): a customer message and what its reply must be. */
export class CreateAgentTestBody {
  @IsString({ message: MESSAGE_RULE })
  @Length(1, 4096, { message: MESSAGE_RULE })
  message!: string;

  @IsDefined({ message: 'expect is required: an object with at least one of contains, skill, handoff, no_answer' })
  @IsObject({ message: 'expect must be an object with at least one of contains, skill, handoff, no_answer' })
  @ValidateNested()
  @Type(() => AgentTestExpectationDto)
  @ExpectsSomething()
  expect!: AgentTestExpectationDto;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** An expectation naming nothing would pass whatever the agent said. */
function ExpectsSomething() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'expectsSomething',
      target: object.constructor,
      propertyName,
      options: { message: 'expect must name at least one of contains, skill, handoff, no_answer' },
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'object' || value === null || ['contains', 'skill', 'handoff', 'no_answer'].some((k) => (value as Record<string, unknown>)[k] !== undefined),
      },
    });
}
