import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
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
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { Weekday } from '../events/agents';
import { CHANNEL_KINDS } from '../events/messages';
import { MEMBER_ID_PATTERN } from './conversations.dto';
import { IsCalendarDate, IsIanaTimeZone, IsOpeningHours } from './validators';

/** How a team hands its conversations to members (CONTRACT.md §18). */
export const TEAM_ROUTINGS = ['round_robin', 'least_busy', 'manual'] as const;
export type TeamRouting = (typeof TEAM_ROUTINGS)[number];

/** A member's presence: `online` members receive conversations; `away` ones keep theirs but get no new ones. */
export const PRESENCE_STATUSES = ['online', 'away'] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

const NAME_RULE = 'name must be a string of 1 to 80 characters';
const MEMBERS_RULE = 'members must be a list of team member ids (usr_…), each once, at most 100';

/** First-response and resolution targets, in seconds from the handoff. */
export class TeamSlaDto {
  @IsOptional()
  @IsInt({ message: 'sla.first_response_seconds must be a whole number of seconds from 60 to 604800 (7 days)' })
  @Min(60, { message: 'sla.first_response_seconds must be a whole number of seconds from 60 to 604800 (7 days)' })
  @Max(604_800, { message: 'sla.first_response_seconds must be a whole number of seconds from 60 to 604800 (7 days)' })
  first_response_seconds?: number;

  @IsOptional()
  @IsInt({ message: 'sla.resolution_seconds must be a whole number of seconds from 60 to 2592000 (30 days)' })
  @Min(60, { message: 'sla.resolution_seconds must be a whole number of seconds from 60 to 2592000 (30 days)' })
  @Max(2_592_000, { message: 'sla.resolution_seconds must be a whole number of seconds from 60 to 2592000 (30 days)' })
  resolution_seconds?: number;
}

/** A field that cannot be cleared is checked when given, null included (IsOptional would let null through to a NOT NULL column). */
const givenOrNull = (_object: object, value: unknown) => value !== undefined;

/** What a team's create and change share; every field optional here, required ones marked in CreateTeamBody. */
class TeamFields {
  @ValidateIf(givenOrNull)
  @IsArray({ message: MEMBERS_RULE })
  @ArrayMaxSize(100, { message: MEMBERS_RULE })
  @ArrayUnique({ message: MEMBERS_RULE })
  @Matches(MEMBER_ID_PATTERN, { each: true, message: MEMBERS_RULE })
  members?: string[];

  @IsOptional()
  @IsInt({ message: 'capacity_per_member must be a whole number of open conversations from 1 to 1000, or null for no limit' })
  @Min(1, { message: 'capacity_per_member must be a whole number of open conversations from 1 to 1000, or null for no limit' })
  @Max(1000, { message: 'capacity_per_member must be a whole number of open conversations from 1 to 1000, or null for no limit' })
  capacity_per_member?: number | null;

  @IsOptional()
  @IsInt({ message: 'reassign_after_seconds must be a whole number of seconds from 10 to 86400, or null never to reassign' })
  @Min(10, { message: 'reassign_after_seconds must be a whole number of seconds from 10 to 86400, or null never to reassign' })
  @Max(86_400, { message: 'reassign_after_seconds must be a whole number of seconds from 10 to 86400, or null never to reassign' })
  reassign_after_seconds?: number | null;

  @ValidateIf(givenOrNull)
  @IsArray({ message: 'holidays must be a list of dates YYYY-MM-DD, at most 366' })
  @ArrayMaxSize(366, { message: 'holidays must be a list of dates YYYY-MM-DD, at most 366' })
  @IsCalendarDate({ each: true, message: 'holidays must be a list of dates YYYY-MM-DD, such as 2026-12-25' })
  holidays?: string[];

  @IsOptional()
  @IsString({ message: 'closed_message must be a string of 1 to 1024 characters, or null for the default' })
  @Length(1, 1024, { message: 'closed_message must be a string of 1 to 1024 characters, or null for the default' })
  closed_message?: string | null;

  @IsOptional()
  @IsObject({ message: 'sla must be an object {first_response_seconds?, resolution_seconds?}, or null' })
  @ValidateNested()
  @Type(() => TeamSlaDto)
  sla?: TeamSlaDto | null;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `POST /api/v1/teams` (CONTRACT.md §18). */
export class CreateTeamBody extends TeamFields {
  @IsString({ message: NAME_RULE })
  @Length(1, 80, { message: NAME_RULE })
  name!: string;

  @IsDefined({ message: MEMBERS_RULE })
  declare members: string[];

  @IsIn(TEAM_ROUTINGS, { message: `routing must be one of: ${TEAM_ROUTINGS.join(', ')}` })
  routing!: TeamRouting;

  @IsIanaTimeZone({ message: 'timezone must be an IANA time zone such as Europe/Madrid' })
  timezone!: string;

  /** `{"mon": [["09:00","12:30"],["13:30","18:00"]], …}`; a day left out is closed. */
  @IsDefined({ message: 'business_hours must be an object keyed by weekday (mon … sun), each a list of ["HH:MM","HH:MM"] ranges' })
  @IsObject({ message: 'business_hours must be an object keyed by weekday (mon … sun), each a list of ["HH:MM","HH:MM"] ranges' })
  @IsOpeningHours()
  business_hours!: Partial<Record<Weekday, [string, string][]>>;
}

/** Body of `PATCH /api/v1/teams/{id}`: only the fields given change (null clears an optional one). */
export class UpdateTeamBody extends TeamFields {
  @ValidateIf(givenOrNull)
  @IsString({ message: NAME_RULE })
  @Length(1, 80, { message: NAME_RULE })
  name?: string;

  @ValidateIf(givenOrNull)
  @IsIn(TEAM_ROUTINGS, { message: `routing must be one of: ${TEAM_ROUTINGS.join(', ')}` })
  routing?: TeamRouting;

  @ValidateIf(givenOrNull)
  @IsIanaTimeZone({ message: 'timezone must be an IANA time zone such as Europe/Madrid' })
  timezone?: string;

  @ValidateIf(givenOrNull)
  @IsObject({ message: 'business_hours must be an object keyed by weekday (mon … sun), each a list of ["HH:MM","HH:MM"] ranges' })
  @IsOpeningHours()
  business_hours?: Partial<Record<Weekday, [string, string][]>>;
}

const MATCH_CHANNEL_RULE = `match.channel must be a channel kind (${CHANNEL_KINDS.join(', ')}) or a channel id (chn_…)`;

/** What a routing rule looks at; every field given must hold, and an empty match takes every conversation. */
export class RoutingMatchDto {
  @IsOptional()
  @IsString({ message: MATCH_CHANNEL_RULE })
  @Matches(new RegExp(`^(${CHANNEL_KINDS.join('|')}|chn_[0-9A-HJKMNP-TV-Z]{26})$`), { message: MATCH_CHANNEL_RULE })
  channel?: string;

  /** The skill that handed the conversation off (faq_responder, lead_capture, appointment_booking), or `human` when the customer asked for a person. */
  @IsOptional()
  @IsString({ message: 'match.skill must be a string of 1 to 64 characters' })
  @Length(1, 64, { message: 'match.skill must be a string of 1 to 64 characters' })
  skill?: string;

  /** A word or phrase in the customer's last message, case and accents ignored. */
  @IsOptional()
  @IsString({ message: 'match.keyword must be a string of 1 to 100 characters' })
  @Length(1, 100, { message: 'match.keyword must be a string of 1 to 100 characters' })
  keyword?: string;

  @IsOptional()
  @IsString({ message: 'match.contact_tag must be a string of 1 to 64 characters' })
  @Length(1, 64, { message: 'match.contact_tag must be a string of 1 to 64 characters' })
  contact_tag?: string;
}

/** One entry of `POST /api/v1/routing-rules`: the first rule whose match holds picks the team. */
export class RoutingRuleDto {
  @IsDefined({ message: 'match must be an object {channel?, skill?, keyword?, contact_tag?}' })
  @IsObject({ message: 'match must be an object {channel?, skill?, keyword?, contact_tag?}' })
  @ValidateNested()
  @Type(() => RoutingMatchDto)
  match!: RoutingMatchDto;

  @IsString({ message: 'team_id must be a team id (tea_…)' })
  @Matches(/^tea_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'team_id must be a team id (tea_…)' })
  team_id!: string;
}

/** Body of `PUT /api/v1/team/me/presence`. */
export class PresenceBody {
  @IsIn(PRESENCE_STATUSES, { message: `status must be one of: ${PRESENCE_STATUSES.join(', ')}` })
  status!: PresenceStatus;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
