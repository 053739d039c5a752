import type { Weekday } from '../events/agents';
import type { PresenceStatus, TeamRouting } from '../dto/teams.dto';
import type { TenantScoped } from './rpc-shapes';

/** A team (`GET /api/v1/teams/{id}`, CONTRACT.md §18): who answers its conversations, how they are handed out, and when. */
export interface TeamRecord {
  /** @idPrefix tea */
  id: string;
  name: string;
  /** @idPrefix usr */
  members: string[];
  routing: TeamRouting;
  /**
   * Open conversations a member holds at most; null: no limit.
   * @apiType integer
   * @apiSchema {minimum: 1}
   */
  capacity_per_member: number | null;
  /**
   * An assignee who sends nothing for this long loses the conversation to the next member; null: never.
   * @apiType integer
   * @apiSchema {minimum: 10}
   */
  reassign_after_seconds: number | null;
  /** @apiSchema {examples: ['Europe/Madrid']} */
  timezone: string;
  /** Periods per weekday, `["HH:MM","HH:MM"]` in the team's time zone; a day left out is closed. */
  business_hours: Partial<Record<Weekday, [string, string][]>>;
  /** @apiFormat date */
  holidays: string[];
  /** What a customer handed off outside business hours is told (the next opening time follows it); null: the default, in their language. */
  closed_message: string | null;
  /** Its targets, counted from a conversation's handoff; null: none. */
  sla: TeamSla | null;
  /** Inside business hours now (the team's time zone, holidays closed). */
  open_now: boolean;
  /** The next time the team opens, when it is closed now; null when open (or never open). */
  next_opening_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A team's service-level targets (CONTRACT.md §18), in seconds from the handoff; either may be left out. */
export interface TeamSla {
  /** @apiType integer */
  first_response_seconds?: number;
  /** @apiType integer */
  resolution_seconds?: number;
}

/** What a routing rule looks for in a conversation handed off. */
export interface RoutingMatch {
  /** A channel kind (whatsapp, sms, email, voice) or a channel id. */
  channel?: string;
  /** The skill that handed off (faq_responder, lead_capture, appointment_booking), or `human` when the customer asked for a person. */
  skill?: string;
  /** A word or phrase in the customer's last message, case and accents ignored. */
  keyword?: string;
  /** A tag of the contact. */
  contact_tag?: string;
}

/** One of the tenant's ordered routing rules (`POST /api/v1/routing-rules`). */
export interface RoutingRuleRecord {
  /** Every condition given must hold; an empty `match` holds always. */
  match: RoutingMatch;
  /** @idPrefix tea */
  team_id: string;
}

/** A member's presence (`PUT /api/v1/team/me/presence`). */
export interface PresenceRecord {
  /** @idPrefix usr */
  member_id: string;
  status: PresenceStatus;
  /** `online` and a dashboard open in the last minute: what routing hands conversations to. */
  available: boolean;
  /** When a dashboard of theirs last held the events stream open; null: never. */
  seen_at: string | null;
}

/** Teams, routing rules and presence, owned by responder-service beside the inbox; bodies are checked there, naming the field. */
export interface TeamsRpc {
  'teams.create': { service: 'responder'; request: TenantScoped & { body: unknown }; response: TeamRecord };
  'teams.list': { service: 'responder'; request: TenantScoped; response: { data: TeamRecord[]; next_cursor: null } };
  'teams.get': { service: 'responder'; request: TenantScoped & { id: string }; response: TeamRecord };
  'teams.update': { service: 'responder'; request: TenantScoped & { id: string; body: unknown }; response: TeamRecord };
  'teams.delete': { service: 'responder'; request: TenantScoped & { id: string }; response: { deleted: true } };
  'routing-rules.replace': { service: 'responder'; request: TenantScoped & { body: unknown }; response: { data: RoutingRuleRecord[] } };
  'routing-rules.list': { service: 'responder'; request: TenantScoped; response: { data: RoutingRuleRecord[] } };
  /** A member's own switch. */
  'presence.set': { service: 'responder'; request: TenantScoped & { member_id: string; status: PresenceStatus }; response: PresenceRecord };
  /** A dashboard of the member's holds the events stream open (sent on open and every 30 s while it stays open). */
  'presence.seen': { service: 'responder'; request: TenantScoped & { member_id: string }; response: PresenceRecord };
  'presence.list': { service: 'responder'; request: TenantScoped; response: { data: PresenceRecord[] } };
}

