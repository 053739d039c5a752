import type { AppointmentRecord, LeadRecord } from '../events/engagement';
import type { InboundInteractive, InboundMedia, OutboundLocation } from '../events/media';
import type { KnowledgeGapRecord, KnowledgeGapState } from '../events/knowledge-gaps';
import type { AgentTestCaseResult, AgentTestExpectation, AgentTestRecord, AgentTestRunRecord } from '../events/agent-tests';
import type { UpsertAgentBody } from '../dto/agents.dto';
import type { ChannelKind } from '../events/messages';
import type { ListQuery, Page, TenantScoped } from './rpc-shapes';

/** The languages the engine answers in (CONTRACT.md §11): BCP 47 primary tags. */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A piece of the agent's knowledge a reply used (CONTRACT.md §11). */
export interface KnowledgeSource {
  type: 'faq' | 'document' | 'instruction';
  /** `faq-1` (the agent's first FAQ), a document passage's `doc_…#n`, or `instruction-1` (its first fact). */
  id: string;
  /** The FAQ's question, the document's title and headings, or `Instruction`. */
  title: string;
  /** The part of it the reply used. */
  excerpt: string;
  /**
   * How sure the engine is that this passage answers the question, 0..1 (CONTRACT.md §20).
   * @apiSchema {minimum: 0, maximum: 1}
   */
  score: number;
}

/** `POST /api/v1/agents/{name}/test` answer (CONTRACT.md §3, §11). */
export interface AgentTestResult {
  reply: string;
  skill: string | null;
  handoff: boolean;
  /** The customer's language the agent answered in: a BCP 47 primary tag. */
  language: Language;
  /** The knowledge the reply used; empty when none. */
  sources: KnowledgeSource[];
  /**
   * How sure the engine is of its answer from knowledge, 0..1; null when it used none (CONTRACT.md §20).
   * @apiSchema {minimum: 0, maximum: 1}
   */
  confidence: number | null;
}

export type ConversationState = 'active' | 'handed_off' | 'closed';
export const CONVERSATION_STATES: readonly ConversationState[] = ['active', 'handed_off', 'closed'];

/**
 * Where a conversation comes from (issue 32): a real `customer`, or the dashboard's `playground` (the tenant playing a
 * customer through the sandbox), kept apart so that tests do not mix with customers.
 */
export type ConversationSource = 'customer' | 'playground';
export const CONVERSATION_SOURCES: readonly ConversationSource[] = ['customer', 'playground'];

/**
 * Who wrote a message of a conversation (CONTRACT.md §12): the customer, the bot (by its agent's name), a team member,
 * or a program through the API with no member signed in.
 */
export type MessageAuthor = { type: 'customer' } | { type: 'agent'; name: string } | MemberActor | { type: 'api' };
/** Who wrote a note or changed a conversation: a team member, or a program (API key, client-credentials token). */
export type InboxActor = MemberActor | { type: 'api' };

// A team member, by id. (No JSDoc: `conversation.updated` records the union's members without a description.)
export interface MemberActor {
  type: 'member';
  /** @idPrefix usr */
  id: string;
}

export interface LastMessage {
  text: string;
  author: MessageAuthor;
  at: string;
}

/** A conversation as the inbox lists it (`GET /api/v1/conversations`, CONTRACT.md §9, §12). */
export interface ConversationSummary {
  /** @idPrefix cnv */
  id: string;
  /** The channel the customer wrote on (conversations from before SMS and email: whatsapp). */
  channel: ChannelKind;
  /** @idPrefix chn */
  channel_id: string;
  /** The customer's number (E.164) or business-scoped user id. */
  customer: string;
  /** The lead's name when the agent learnt it, else the customer's WhatsApp profile name, else null. */
  contact_name: string | null;
  state: ConversationState;
  /**
   * The team member (`usr_…`) it is assigned to, or null.
   * @idPrefix usr
   */
  assignee: string | null;
  /**
   * Customer messages since a member last opened or answered it (counted while a person answers: since the handoff).
   * @apiType integer
   * @apiSchema {minimum: 0}
   */
  unread: number;
  last_message: LastMessage | null;
  /**
   * The customer's own last message, whatever was said after it (the inbox's preview: what they asked, not our answer);
   * null before they wrote. Absent from events published before it existed.
   * @apiDescription The customer's own latest message, whatever was said after it (the list's preview); null before they wrote.
   */
  last_customer_message?: LastMessage | null;
  /**
   * `customer`, or `playground` for the dashboard's playground; absent from events published before it existed (then `customer`).
   * @apiDescription `playground` for the dashboard playground's conversations, `customer` for real customers.
   */
  source?: ConversationSource;
  /**
   * The team handling it (CONTRACT.md §18): the one routing picked at the handoff, or set by hand; null before. The
   * API always answers it; absent from events published before it existed (as `labels` and `sla`).
   * @idPrefix tea
   * @apiDescription The team handling it: routing's pick at the handoff, or set by hand; null before.
   */
  team_id?: string | null;
  /**
   * Labels the team put on it, sorted.
   * @apiDescription Its labels, sorted.
   */
  labels?: string[];
  /**
   * Its team's targets for this handoff (CONTRACT.md §18); null when its team has none (or it has no team).
   * @apiDescription Its team's targets for this handoff, counted from it; `breached` once a due time passed unmet. Null when its team has none.
   */
  sla?: ConversationSla | null;
  /**
   * The customer's answer to the satisfaction question sent when it was closed (CONTRACT.md §18); null before.
   * @apiDescription The customer's answer (1 very poor … 5 excellent) to the rating question sent once when it was closed inside their 24-hour window; null before.
   */
  rating?: ConversationRating | null;
  /** The customer's last message + 24 h: after it, only a template may be sent (CONTRACT.md §4). */
  window_expires_at: string;
  started_at: string;
  /** When the customer last wrote. */
  last_message_at: string;
}

// Every field of `ConversationSummary` present: those optional there are optional only for `conversation.updated` events
// published before they existed; responder-service always fills them in.
/** A conversation as the inbox lists it (`GET /api/v1/conversations`, CONTRACT.md §9, §12). */
export type ConversationView = ConversationSummary & {
  last_customer_message: LastMessage | null;
  source: ConversationSource;
  team_id: string | null;
  labels: string[];
  sla: ConversationSla | null;
  rating: ConversationRating | null;
};

export interface ConversationTurnRecord {
  /** @idPrefix msg */
  message_id: string;
  /** `agent` for the bot; `member` for a person's reply (a member's or a program's, see `author`). */
  role: 'customer' | 'agent' | 'member';
  author: MessageAuthor;
  text: string;
  at: string;
  /**
   * What the message was besides text (CONTRACT.md §13): `image`, `document`, `audio`, `video`, `sticker`, `location`,
   * `interactive` or `template`; absent on text.
   */
  type?: string;
  /** The file in the media store (`GET /api/v1/media/{id}`): a customer's download, or what a send attached. */
  media?: ThreadMedia;
  /** The reply button or list row the customer tapped. */
  interactive?: InboundInteractive;
  /** A location sent to the customer. */
  location?: OutboundLocation;
  /** The reply buttons or list rows an interactive message sent to the customer offered (its body is the text). */
  options?: string[];
  /** The template sent to the customer. */
  template?: { name: string; language: string };
  /**
   * What became of a message to the customer (the inbox's ticks): `sent`, `delivered`, `read` or `failed` (with
   * `error`), null while the provider has not answered yet; absent on the customer's own messages. Filled in by the
   * gateway from messaging-service, which owns message statuses.
   */
  status?: 'sent' | 'delivered' | 'read' | 'failed' | null;
  /** Why a `failed` message failed. */
  error?: { code: string; title: string };
  /** An email's subject line; absent on other channels and on mail without one (filled in by the gateway from messaging-service, which keeps the mail). */
  subject?: string;
}

/**
 * A thread message's file: a customer's as downloaded (every field), or one a send attached (`mime_type` and `size`
 * are not on the send; `type` says what it is).
 */
export type ThreadMedia = Pick<InboundMedia, 'id' | 'caption'> & Partial<Pick<InboundMedia, 'mime_type' | 'size'>>;

/** An internal note on a conversation: never sent to the customer. */
export interface ConversationNoteRecord {
  /** @idPrefix nte */
  id: string;
  /** @idPrefix cnv */
  conversation_id: string;
  /** As written: a mention is `@usr_…`, which the dashboard shows as the member's name. */
  text: string;
  /**
   * The members the text mentions (`@usr_…`), in order, each once.
   * @idPrefix usr
   */
  mentions: string[];
  author: InboxActor;
  at: string;
}

/**
 * `GET /api/v1/conversations/{id}`: the conversation with its whole thread, oldest first, and its internal notes as a
 * separate list, oldest first (merge them by `at` to interleave).
 */
export interface ConversationRecord extends ConversationView {
  /** Email conversations: the subject of the customer's latest mail that had one (null when none had); absent elsewhere. */
  subject?: string | null;
  /** The whole thread, oldest first. */
  messages: ConversationTurnRecord[];
  /** Internal notes, oldest first (merge by `at` to interleave). */
  notes: ConversationNoteRecord[];
}

/** `GET /api/v1/conversations` filters, resolved by the gateway (`assignee=me` becomes the member's id). */
export interface ConversationFilter {
  state: ConversationState | null;
  /** A member id, `none` (unassigned), or null (anyone). */
  assignee: string | null;
  /** A channel id (`chn_…`) or a channel kind (`whatsapp`), or null. */
  channel: string | null;
  /**
   * Words searched in what the customer and the business wrote (PostgreSQL full-text search, in the conversation's
   * language and accent-insensitive), and in the contact's name and number.
   */
  q: string | null;
  /** Only real customers' conversations, or only the playground's; null: both. */
  source?: ConversationSource | null;
  /** A team's conversations (`tea_…`), or null. */
  team_id?: string | null;
  /** Conversations carrying this label, or null. */
  label?: string | null;
  /** Conversations whose notes mention this member (`usr_…`), or null. */
  mentioned?: string | null;
}

/** `PATCH /api/v1/conversations/{id}`: take over (`handed_off`), give back (`active`), close; assign or unassign; label; move to a team. */
export interface ConversationChange {
  state?: ConversationState;
  assignee?: string | null;
  labels?: string[];
  team_id?: string | null;
}

/** A customer's satisfaction rating of a closed conversation: 1 (very poor) to 5 (excellent). */
export interface ConversationRating {
  /**
   * @apiType integer
   * @apiSchema {minimum: 1, maximum: 5}
   */
  score: number;
  comment: string | null;
  rated_at: string;
}

/** A handed-off conversation's due times (its team's SLA, counted from the handoff) and whether one was missed. */
export interface ConversationSla {
  first_response_due_at: string | null;
  resolution_due_at: string | null;
  breached: boolean;
}

/** responder-service's request-reply patterns. */
export interface ResponderRpc {
  'replies.preview': {
    service: 'responder';
    request: TenantScoped & { agent: string; message: string; from: string | null };
    response: AgentTestResult;
  };
  'conversations.list': { service: 'responder'; request: TenantScoped & ListQuery & Partial<ConversationFilter>; response: Page<ConversationView> };
  /** `reader`: the member opening it, whose opening marks it read (null: a program reads it, nothing changes). */
  'conversations.get': { service: 'responder'; request: TenantScoped & { id: string; reader?: string | null }; response: ConversationRecord };
  'conversations.release': { service: 'responder'; request: TenantScoped & { id: string }; response: ConversationView };
  'conversations.update': { service: 'responder'; request: TenantScoped & { id: string; change: ConversationChange; actor: InboxActor }; response: ConversationView };
  /** A person's reply, sent through message.outbound; answers the stored message. */
  'conversations.reply': { service: 'responder'; request: TenantScoped & { id: string; message: string; actor: InboxActor }; response: ConversationTurnRecord };
  'conversations.note': { service: 'responder'; request: TenantScoped & { id: string; text: string; actor: InboxActor }; response: ConversationNoteRecord };
  /**
   * The dashboard's playground is about to write as `customer` (E.164): that customer's conversations, present and to
   * come, are the playground's (`source: "playground"`), not a real customer's.
   */
  'conversations.playground-customer': { service: 'responder'; request: TenantScoped & { customer: string }; response: { customer: string; conversations: number } };
  /** Canned replies (CONTRACT.md §18); `body` is checked again by responder-service, which names the bad field. */
  'canned-replies.create': { service: 'responder'; request: TenantScoped & { body: unknown }; response: CannedReplyRecord };
  /** `q`: words found in the shortcut or the text. Sorted by shortcut (a picker's order), not newest first. */
  'canned-replies.list': { service: 'responder'; request: TenantScoped & ListQuery & { q?: string | null }; response: Page<CannedReplyRecord> };
  'canned-replies.get': { service: 'responder'; request: TenantScoped & { id: string }; response: CannedReplyRecord };
  'canned-replies.update': { service: 'responder'; request: TenantScoped & { id: string; body: unknown }; response: CannedReplyRecord };
  'canned-replies.delete': { service: 'responder'; request: TenantScoped & { id: string }; response: { deleted: true } };
  /** Knowledge gaps of an agent (CONTRACT.md §19), the most recently asked first; `agent` is the agent's name. */
  'gaps.list': { service: 'responder'; request: TenantScoped & ListQuery & { agent: string; state: KnowledgeGapState }; response: Page<KnowledgeGapRecord> };
  'gaps.get': { service: 'responder'; request: TenantScoped & { agent: string; id: string }; response: KnowledgeGapRecord };
  /** Closes an open gap with the answer the agent now has as FAQs (the gateway added them first); again with the same answer: the same gap. */
  'gaps.close': { service: 'responder'; request: TenantScoped & { agent: string; id: string; answer: string }; response: KnowledgeGapRecord };
  'gaps.dismiss': { service: 'responder'; request: TenantScoped & { agent: string; id: string }; response: KnowledgeGapRecord };
  /** A person's verdict on an agent reply of a conversation (CONTRACT.md §19); `wrong` makes its question a gap. */
  'conversations.feedback': {
    service: 'responder';
    request: TenantScoped & { id: string; message_id: string; verdict: 'right' | 'wrong'; note: string | null; actor: InboxActor };
    response: MessageFeedbackRecord;
  };
  /** An agent's test set (CONTRACT.md §19); `agent` is the agent's name, which must be live. */
  'agent-tests.create': { service: 'responder'; request: TenantScoped & { agent: string; message: string; expect: AgentTestExpectation }; response: AgentTestRecord };
  /** Oldest first (the order they were written in). */
  'agent-tests.list': { service: 'responder'; request: TenantScoped & ListQuery & { agent: string }; response: Page<AgentTestRecord> };
  'agent-tests.delete': { service: 'responder'; request: TenantScoped & { agent: string; id: string }; response: { deleted: true } };
  /** The run of the set against one version of the agent; 404 when that version had no tests to run. */
  'agent-tests.run': { service: 'responder'; request: TenantScoped & { agent: string; version: number }; response: AgentTestRunRecord };
  /**
   * Runs the set against a body about to be PUT (`?require_tests=pass`), saving nothing: the failing cases, empty when
   * every case passes (or there are none).
   */
  'agent-tests.check': { service: 'responder'; request: TenantScoped & { agent: string; body: UpsertAgentBody }; response: { total: number; failing: AgentTestCaseResult[] } };
  /** An agent's replies over a range of days in a time zone (CONTRACT.md §19); null: the last 30 days, UTC. */
  'analytics.agent': { service: 'responder'; request: TenantScoped & { agent: string; from: string | null; to: string | null; tz: string | null }; response: AgentAnalytics };
  'leads.list': { service: 'responder'; request: TenantScoped & ListQuery; response: Page<LeadRecord> };
  'appointments.list': { service: 'responder'; request: TenantScoped & ListQuery; response: Page<AppointmentRecord> };
  /** The tenant's secret calendar feed token (made on first asking); the gateway builds the feed URL from it. */
  'appointments.feed-token': { service: 'responder'; request: TenantScoped; response: CalendarFeedToken };
  /** A new token: the old feed URL answers 404 from now on. */
  'appointments.feed-rotate': { service: 'responder'; request: TenantScoped; response: CalendarFeedToken };
  /** The feed a token opens (the token is the only credential), as iCalendar text; 404 for an unknown token. */
  'appointments.feed': { service: 'responder'; request: { token: string }; response: { ics: string } };
  /** The tenant's own LLM (issue 23 item 7); the body is checked by responder-service, which names the bad field. */
  'llm-settings.put': { service: 'responder'; request: TenantScoped & { settings: Record<string, unknown> }; response: LlmSettingsRecord };
  /** null: the tenant uses the global LLM. */
  'llm-settings.get': { service: 'responder'; request: TenantScoped; response: LlmSettingsRecord | null };
  'llm-settings.delete': { service: 'responder'; request: TenantScoped; response: { deleted: boolean } };
}

/**
 * A canned reply (CONTRACT.md §18): text a person inserts by its shortcut, its variables (`{{contact.name}}`,
 * `{{agent.name}}`) filled in from the conversation's contact and the member at the moment it is inserted.
 */
export interface CannedReplyRecord {
  /** @idPrefix cnr */
  id: string;
  /** @apiSchema {examples: ['opening-hours']} */
  shortcut: string;
  /** As written: `{{contact.name}}` and `{{agent.name}}` are filled in where it is inserted. */
  text: string;
  created_at: string;
  updated_at: string;
}

/** One day and language of an agent's replies (`GET /api/v1/agents/{name}/analytics`, CONTRACT.md §19). */
export interface AgentAnalyticsDay {
  /**
   * `YYYY-MM-DD` in the requested time zone.
   * @apiFormat date
   */
  day: string;
  /** @apiSchema {examples: ['en']} */
  language: string;
  /**
   * Replies the agent gave (a burst of messages answered together is one).
   * @apiType integer
   */
  questions: number;
  /**
   * Answered from its knowledge (an FAQ, a document, the instruction).
   * @apiType integer
   */
  answered: number;
  /** @apiType integer */
  not_known: number;
  /** @apiType integer */
  handed_off: number;
  /** @apiType integer */
  bookings: number;
  /** @apiType integer */
  leads: number;
}

/** A piece of an agent's knowledge: an FAQ (`faq-1`, its question), a document (`doc_…`, its title) or its instruction. */
export interface AgentKnowledgeSource {
  type: 'faq' | 'document' | 'instruction';
  id: string;
  title: string;
}

/** A piece of knowledge and how many replies of the range used it. */
export interface UsedKnowledgeSource extends AgentKnowledgeSource {
  /** @apiType integer */
  count: number;
}

export interface AgentAnalytics {
  agent: string;
  /** @apiFormat date */
  from: string;
  /** @apiFormat date */
  to: string;
  /** @apiSchema {examples: ['Europe/Madrid']} */
  tz: string;
  data: AgentAnalyticsDay[];
  sources: {
    /** The most used first (at most 10), with the replies that used each. */
    most_used: UsedKnowledgeSource[];
    /** The agent's FAQs and documents no reply of the range used. */
    never_used: AgentKnowledgeSource[];
  };
}

/** A verdict on an agent reply (`POST /api/v1/conversations/{id}/messages/{message_id}/feedback`, CONTRACT.md §19). */
export interface MessageFeedbackRecord {
  /** @idPrefix cnv */
  conversation_id: string;
  /** @idPrefix msg */
  message_id: string;
  verdict: 'right' | 'wrong';
  note: string | null;
  /**
   * The gap the question now counts in (verdict `wrong`), else null.
   * @idPrefix gap
   */
  gap_id: string | null;
  at: string;
}

/** A tenant's LLM settings as the API shows them: never the key, only its last four characters. */
export interface LlmSettingsRecord {
  base_url: string;
  model: string;
  /**
   * Decimal string, like all money.
   * @apiFormat money
   */
  monthly_budget: string;
  api_key_set: true;
  api_key_last4: string;
}

/** Which LLM a tenant's agents use (`GET /api/v1/settings/llm`): its own (the settings, without the key) or the platform's. */
export type LlmSettingsInUse = ({ source: 'tenant' } & LlmSettingsRecord) | { source: 'platform' };

/** A lead as `GET /api/v1/leads` lists it: with the contact crm-service linked it to (CONTRACT.md §14). */
export interface ListedLead extends LeadRecord {
  /**
   * The contact the lead made or joined (CONTRACT.md §14); null until crm-service has linked it.
   * @idPrefix ctc
   */
  contact_id: string | null;
}

/** The tenant's secret calendar feed (`GET /api/v1/integrations/calendar`). */
export interface CalendarFeedRecord {
  /**
   * The secret feed URL (`…/calendar/{token}.ics`): whoever has it reads the appointments.
   * @apiFormat uri
   */
  url: string;
}

/** A calendar feed token: 256 random bits in base64url, the secret part of `/calendar/{token}.ics`. */
export interface CalendarFeedToken {
  token: string;
}

export const CALENDAR_FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
