import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { SKILLS, type Skill, type Weekday } from '../events/agents';
import { IsIanaTimeZone, IsOpeningHours } from './validators';

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const AGENT_NAME_RULE = 'must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$ (letters, digits, _ . -; up to 64 characters)';

export class FaqDto {
  @IsString()
  @Length(1, 1000)
  question!: string;

  @IsString()
  @Length(1, 4000)
  answer!: string;
}

/** The FAQs a knowledge gap's answer adds to an agent (CONTRACT.md §19): each as in UpsertAgentBody. */
export class AddFaqsBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => FaqDto)
  faqs!: FaqDto[];
}

export class BookingDto {
  @IsDefined()
  @IsIanaTimeZone()
  timezone!: string;

  @IsInt()
  @Min(5)
  @Max(480)
  slot_minutes!: number;

  @IsDefined()
  @IsObject()
  @IsOpeningHours()
  opening_hours!: Partial<Record<Weekday, [string, string][]>>;
}

/** Body of `PUT /api/v1/agents/{agent_name}` (CONTRACT.md §3). */
export class UpsertAgentBody {
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `name ${AGENT_NAME_RULE}` })
  name!: string;

  @IsString()
  @Length(1, 8000)
  instruction!: string;

  // Required, but may be empty ("no greeting"): a missing greeting is named as missing, not as too short.
  @IsDefined({ message: 'greeting is required: the first words of a conversation, or "" for none' })
  @IsString()
  @MaxLength(1000)
  greeting!: string;

  @IsArray()
  @ArrayUnique({ message: 'skills must not repeat a skill' })
  @IsIn(SKILLS, { each: true, message: `skills must contain only: ${SKILLS.join(', ')}` })
  skills!: Skill[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => FaqDto)
  faqs?: FaqDto[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BookingDto)
  booking?: BookingDto;
}

/** Body of `POST /api/v1/agents/{agent_name}/test` (CONTRACT.md §3): one message, answered without side effects. */
export class TestAgentBody {
  @IsString()
  @Length(1, 4096)
  message!: string;

  /** The customer number the message would come from (E.164), for skills that use it; a sample number by default. */
  @IsOptional()
  @IsString()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'from must be an E.164 phone number such as +14155550100' })
  from?: string;
}
