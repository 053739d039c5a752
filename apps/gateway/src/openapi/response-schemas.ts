import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CHANNEL_KINDS, CONVERSATION_SOURCES, CONVERSATION_STATES, DELIVERY_STATUSES, MESSAGE_STATUSES, ProblemTypes, SKILLS, TEMPLATE_CATEGORIES, WEBHOOK_EVENT_TYPES, WHATSAPP_PROVIDERS, SMS_PROVIDERS, EMAIL_PROVIDERS } from '@parley/contracts';
import { BILLING_CATEGORIES, BILLING_PLANS, LEDGER_TRANSACTION_TYPES } from '@parley/contracts';
import { MEMBER_ROLES, PERMISSIONS, PLANS } from '../contracts/identity';
import { schemaRef, type Schema } from './dto-schema';

/*
 * The answers' shapes (CONTRACT.md §1–§9). The records are TypeScript interfaces in @parley/contracts (no run-time
 * metadata), so they are declared here once, with the enums taken from the same constants the services use; the
 * OpenAPI integration test checks real answers against them.
 */

const string: SchemaObject = { type: 'string' };
const timestamp: SchemaObject = { type: 'string', format: 'date-time' };
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const id = (prefix: string): SchemaObject => ({ type: 'string', pattern: `^${prefix}_`, example: `${prefix}_01JD3S4ZC5Q2X8V6N7M9P0R1T2` });
const enumOf = (values: readonly (string | number)[]): SchemaObject => ({ type: typeof values[0] === 'number' ? 'integer' : 'string', enum: [...values] });

/** An object whose listed properties are all present (optional ones listed in `optional`). */
function record(properties: Record<string, Schema>, optional: string[] = []): SchemaObject {
  const required = Object.keys(properties).filter((p) => !optional.includes(p));
  // OpenAPI 3.0 refuses an empty `required`: an object of optional members only has none
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/** `{data: [...], next_cursor}` of every list (CONTRACT.md §1). */
export const pageOf = (item: string): SchemaObject => record({ data: { type: 'array', items: schemaRef(item) }, next_cursor: nullable(string) });

/** Money (CONTRACT.md §16): a decimal string, never a JSON number. */
const money: SchemaObject = { type: 'string', pattern: '^\\d+\\.\\d{6}$', example: '12.500000' };
const signedMoney: SchemaObject = { type: 'string', pattern: '^-?\\d+\\.\\d{6}$', example: '-0.040000' };
const currency: SchemaObject = { type: 'string', pattern: '^[A-Z]{3}$', example: 'USD' };

const faq = record({ question: string, answer: string });
const booking = record({
  timezone: string,
  slot_minutes: { type: 'integer' },
  opening_hours: { type: 'object', additionalProperties: { type: 'array', items: { type: 'array', items: string, minItems: 2, maxItems: 2 } } },
});
const agentBody = {
  name: string,
  instruction: string,
  greeting: string,
  skills: { type: 'array', items: enumOf(SKILLS) },
  faqs: { type: 'array', items: faq },
  booking: nullable(booking),
};

const channel = {
  id: id('chn'),
  channel: enumOf(CHANNEL_KINDS),
  provider: enumOf([...new Set([...WHATSAPP_PROVIDERS, ...SMS_PROVIDERS, ...EMAIL_PROVIDERS])]),
  phone_number: { type: 'string', description: 'The number (E.164); for an email channel its address.' },
  address: { type: 'string', description: 'Email channels: the address mail is sent from and received at.' },
  phone_number_id: nullable(string),
  waba_id: nullable(string),
  status: enumOf(['connected', 'disconnected']),
  agent: nullable(string),
  is_default: { type: 'boolean' },
  send_limit_per_second: nullable({ type: 'integer' }),
  created_at: timestamp,
};

/** A contact's or company's attributes (CONTRACT.md §14): up to 50 keys of strings, numbers and booleans. */
const contactAttributes: SchemaObject = {
  type: 'object',
  maxProperties: 50,
  additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
};

const webhookEndpoint = {
  id: id('whk'),
  url: { type: 'string', format: 'uri' },
  events: { type: 'array', items: enumOf(WEBHOOK_EVENT_TYPES) },
  description: nullable(string),
  enabled: { type: 'boolean' },
  ordered: { type: 'boolean' },
  created_at: timestamp,
};

const webhookDelivery = {
  id: id('dlv'),
  endpoint_id: id('whk'),
  event_id: string,
  event_type: string,
  status: enumOf(DELIVERY_STATUSES),
  attempt_count: { type: 'integer' },
  next_attempt_at: nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
  attempts: {
    type: 'array',
    items: record({
      attempt: { type: 'integer' },
      attempted_at: timestamp,
      status_code: nullable({ type: 'integer' }),
      duration_ms: { type: 'integer' },
      error: nullable(string),
      response_excerpt: nullable(string),
    }),
  },
};

const accepted: SchemaObject = { type: 'boolean', enum: [true] };

const messageAuthor: SchemaObject = {
  oneOf: [
    record({ type: enumOf(['customer']) }),
    record({ type: enumOf(['agent']), name: string }),
    record({ type: enumOf(['member']), id: id('usr') }),
    record({ type: enumOf(['api']) }),
  ],
  description: 'Who wrote it: the customer, the bot (its agent’s name), a team member, or a program (API key) replying as a person.',
};
const inboxActor: SchemaObject = { oneOf: [record({ type: enumOf(['member']), id: id('usr') }), record({ type: enumOf(['api']) })] };

const conversationSummary = {
  id: id('cnv'),
  channel: enumOf(CHANNEL_KINDS),
  channel_id: id('chn'),
  customer: string,
  contact_name: nullable({ type: 'string', description: 'The lead’s name when known, else the customer’s WhatsApp profile name.' }),
  state: enumOf(CONVERSATION_STATES),
  assignee: nullable(id('usr')),
  unread: { type: 'integer', minimum: 0, description: 'Customer messages since a member last opened or answered it (since the handoff while a person answers).' },
  last_message: nullable(record({ text: string, author: messageAuthor, at: timestamp })),
  last_customer_message: {
    ...nullable(record({ text: string, author: messageAuthor, at: timestamp })),
    description: 'The customer’s own latest message, whatever was said after it (the list’s preview); null before they wrote.',
  },
  source: { ...enumOf(CONVERSATION_SOURCES), description: '`playground` for the dashboard playground’s conversations, `customer` for real customers.' },
  team_id: { ...nullable(id('tea')), description: 'The team handling it: routing’s pick at the handoff, or set by hand.' },
  labels: { type: 'array', items: string, description: 'Its labels, sorted.' },
  sla: {
    ...nullable(record({ first_response_due_at: nullable(timestamp), resolution_due_at: nullable(timestamp), breached: { type: 'boolean' } })),
    description: 'Its team’s targets for this handoff, counted from it; `breached` once a due time passed unmet. Null when its team has none.',
  },
  rating: {
    ...nullable(record({ score: { type: 'integer', minimum: 1, maximum: 5 }, comment: nullable(string), rated_at: timestamp })),
    description: 'The customer’s answer (1 very poor … 5 excellent) to the rating question sent once when it was closed inside their 24-hour window; null before.',
  },
  window_expires_at: { ...timestamp, description: 'The customer’s last message + 24 h; after it only a template may be sent.' },
  started_at: timestamp,
  last_message_at: { ...timestamp, description: 'When the customer last wrote.' },
};
const number: SchemaObject = { type: 'number' };

const weeklyHours: SchemaObject = {
  type: 'object',
  description: 'Periods per weekday (`mon` … `sun`), `["HH:MM","HH:MM"]` in the team’s time zone; a day left out is closed.',
  additionalProperties: { type: 'array', items: { type: 'array', items: string, minItems: 2, maxItems: 2 } },
};
const routingRule = record({
  match: record(
    {
      channel: { type: 'string', pattern: `^(${CHANNEL_KINDS.join('|')}|chn_[0-9A-HJKMNP-TV-Z]{26})$`, description: 'A channel kind (whatsapp, sms, email, voice) or a channel id.' },
      skill: { type: 'string', description: 'The skill that handed off (faq_responder, lead_capture, appointment_booking), or `human` when the customer asked for a person.' },
      keyword: { type: 'string', description: 'A word or phrase in the customer’s last message, case and accents ignored.' },
      contact_tag: { type: 'string', description: 'A tag of the contact.' },
    },
    ['channel', 'skill', 'keyword', 'contact_tag'],
  ),
  team_id: id('tea'),
});
const presence = record({
  member_id: id('usr'),
  status: enumOf(['online', 'away']),
  available: { type: 'boolean', description: '`online` and a dashboard of theirs open in the last minute: routing hands conversations only to these.' },
  seen_at: { ...nullable(timestamp), description: 'When a dashboard of theirs last held the events stream open.' },
});
// What a message was besides text (CONTRACT.md §13); `text` is then a stand-in such as "[image] receipt".
const conversationMessage = record(
  {
    message_id: id('msg'),
    role: enumOf(['customer', 'agent', 'member']),
    author: messageAuthor,
    text: string,
    at: timestamp,
    type: { type: 'string', description: '`image`, `document`, `audio`, `video`, `sticker`, `location`, `interactive` or `template`; absent on text.' },
    media: record({ id: id('med'), mime_type: string, size: { type: 'integer' }, caption: nullable(string) }, ['mime_type', 'size']),
    interactive: { ...record({ id: string, title: string }), description: 'The reply button or list row the customer tapped.' },
    location: record({ latitude: number, longitude: number, name: string, address: string }, ['name', 'address']),
    options: { type: 'array', items: string, description: 'The reply buttons or list rows an interactive message sent to the customer offered.' },
    template: record({ name: string, language: string }),
    status: {
      ...nullable(enumOf(['sent', 'delivered', 'read', 'failed'])),
      description: 'A message to the customer: what became of it (the inbox’s ticks); null until the provider answers. Absent on the customer’s messages.',
    },
    error: { ...record({ code: string, title: string }), description: 'Why a `failed` message failed.' },
    subject: { type: 'string', description: 'An email’s subject line; absent on other channels and on mail without one.' },
  },
  ['type', 'media', 'interactive', 'location', 'options', 'template', 'status', 'error', 'subject'],
);
const conversationNote = record({
  id: id('nte'),
  conversation_id: id('cnv'),
  text: { type: 'string', description: 'As written; a mention is `@usr_…`.' },
  mentions: { type: 'array', items: id('usr'), description: 'The members the text mentions, in order, each once.' },
  author: inboxActor,
  at: timestamp,
});

const teamMember = {
  id: id('usr'),
  email: { type: 'string', format: 'email' },
  name: string,
  role: enumOf(MEMBER_ROLES),
  status: enumOf(['invited', 'active']),
  created_at: timestamp,
};

const permission: SchemaObject = {
  ...enumOf(Object.keys(PERMISSIONS)),
  description: Object.entries(PERMISSIONS)
    .map(([name, what]) => `\`${name}\`: ${what}`)
    .join('; '),
};

/** Every response schema, by component name. */
export const RESPONSE_SCHEMAS: Record<string, SchemaObject> = {
  ProblemDetails: {
    type: 'object',
    description: 'RFC 9457 problem details (`application/problem+json`); `type` is stable per kind of error.',
    properties: {
      // Open (not an enum): a client must cope with a kind of error added later.
      type: { type: 'string', format: 'uri', description: `Stable per kind of error, e.g. ${Object.values(ProblemTypes).map((t) => `\`${t}\``).join(', ')}.` },
      title: string,
      status: { type: 'integer' },
      detail: string,
      instance: string,
      errors: { type: 'array', items: record({ field: string, message: string }) },
      request_id: string,
    },
    required: ['type', 'title', 'status', 'detail', 'request_id'],
  },
  OAuthError: record(
    { error: enumOf(['invalid_request', 'invalid_client', 'unsupported_grant_type']), error_description: string },
    ['error_description'],
  ),
  CreatedAccount: record({ tenant_id: id('ten'), plan: enumOf(['free']), client_id: string, client_secret: string, api_key: string }),
  AccessToken: record({ access_token: string, token_type: enumOf(['Bearer']), expires_in: { type: 'integer' } }),
  TokenRequest: {
    type: 'object',
    description: 'Client credentials in the body, or omitted from it and sent as HTTP Basic client authentication.',
    properties: { grant_type: enumOf(['client_credentials']), client_id: string, client_secret: string, scope: string },
    required: ['grant_type'],
  },
  ApiKey: record({ id: id('key'), name: nullable(string), prefix: string, created_at: timestamp }),
  CreatedApiKey: record({ id: id('key'), name: nullable(string), api_key: string, created_at: timestamp }),
  Agent: record({ id: id('agt'), ...agentBody, version: { type: 'integer' }, created_at: timestamp, updated_at: timestamp }),
  AgentVersionSummary: record({ version: { type: 'integer' }, created_at: timestamp }),
  AgentVersion: record({ version: { type: 'integer' }, created_at: timestamp, body: record(agentBody) }),
  Document: record({
    id: id('doc'),
    title: string,
    source: enumOf(['text', 'url', 'file']),
    url: nullable({ type: 'string', format: 'uri' }),
    status: enumOf(['processing', 'ready', 'failed']),
    chunks: nullable({ type: 'integer', description: 'Passages indexed, once ready.' }),
    error: nullable({ type: 'string', description: 'Why processing failed.' }),
    refresh: { ...enumOf(['off', 'daily', 'weekly']), description: 'How often a `url` document is fetched again; `off` for the others.' },
    last_refresh: nullable({
      ...record(
        {
          at: timestamp,
          status: { ...enumOf(['unchanged', 'updated', 'failed']), description: '`updated`: the page changed and its passages replaced the old ones; `failed`: the last good passages are kept.' },
          error: { type: 'string', description: 'Why the refresh failed (`failed` only).' },
        },
        ['error'],
      ),
      description: 'The latest refresh; null before the first.',
    }),
    next_refresh_at: nullable({ ...timestamp, description: 'When it is fetched next; null: never.' }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  DocumentImport: record({
    import_id: id('imp'),
    agent: string,
    sitemap_url: { type: 'string', format: 'uri' },
    refresh: enumOf(['off', 'daily', 'weekly']),
    max_pages: { type: 'integer' },
    status: enumOf(['queued', 'running', 'completed', 'failed']),
    pages_found: nullable({ type: 'integer', description: 'Pages the sitemap lists under it; null until read.' }),
    documents_added: { type: 'integer', description: 'Documents made, one per page (each processed as any `url` document).' },
    pages_skipped: { type: 'integer' },
    skipped: { type: 'array', items: record({ url: string, reason: string }), description: 'Pages left out and why (the first 50).' },
    error: nullable({ type: 'string', description: 'Why the import failed: the sitemap could not be read.' }),
    created_at: timestamp,
    completed_at: nullable(timestamp),
  }),
  AgentTestResult: record({
    reply: string,
    skill: nullable(string),
    handoff: { type: 'boolean' },
    language: enumOf(['en', 'es', 'pt', 'fr', 'de']),
    sources: {
      type: 'array',
      items: record({
        type: enumOf(['faq', 'document', 'instruction']),
        id: string,
        title: string,
        excerpt: string,
        score: { type: 'number', minimum: 0, maximum: 1, description: 'How sure the engine is that this passage answers (CONTRACT §20).' },
      }),
    },
    confidence: nullable({ type: 'number', minimum: 0, maximum: 1, description: 'How sure the engine is of its answer from knowledge; null when no knowledge was used.' }),
  }),
  SendResult: record({ status: enumOf(['sent']), message_id: id('msg') }),
  Message: record(
    {
      message_id: id('msg'),
      direction: enumOf(['outbound', 'inbound']),
      channel: enumOf(CHANNEL_KINDS),
      from: string,
      to: string,
      type: string,
      message: string,
      status: enumOf(MESSAGE_STATUSES),
      status_history: { type: 'array', items: record({ status: string, at: timestamp }) },
      error: record({ code: string, title: string }),
      attachments: {
        type: 'array',
        description: "A customer's email: its attachments, each readable at GET /api/v1/media/{id}.",
        items: record({ id: id('med'), mime_type: string, size: { type: 'integer' }, filename: nullable(string) }),
      },
      authentication: {
        ...record({ spf: nullable(string), dkim: nullable(string), dmarc: nullable(string), authserv_id: nullable(string) }),
        description: "A customer's email: the SPF/DKIM/DMARC results its Authentication-Results (or Received-SPF) header stated; recorded, not enforced.",
      },
      created_at: timestamp,
    },
    ['error', 'attachments', 'authentication'],
  ),
  Webhook: record(webhookEndpoint),
  CreatedWebhook: record({ ...webhookEndpoint, secret: { type: 'string', pattern: '^whsec_' } }),
  WebhookSecret: record({ secret: { type: 'string', pattern: '^whsec_' } }),
  WebhookDelivery: record(webhookDelivery),
  WebhookDeliveryDetail: record({
    ...webhookDelivery,
    payload: { type: 'object', additionalProperties: true, description: 'The exact JSON body every attempt signs and sends.' },
    request_headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Headers every attempt carries; each attempt adds its own webhook-timestamp (its time in seconds) and webhook-signature.',
    },
  }),
  TestEventAccepted: record({ accepted: accepted, event_id: string }),
  RetryAccepted: record({ accepted: accepted, delivery_id: id('dlv') }),
  ReplayAccepted: record({ accepted: accepted, deliveries: { type: 'integer', description: 'How many deliveries were queued again.' } }),
  Channel: record(channel, ['address']),
  Template: record({
    id: id('tpl'),
    channel_id: id('chn'),
    name: string,
    language: string,
    category: enumOf(TEMPLATE_CATEGORIES),
    components: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Cloud API template components (HEADER, BODY, FOOTER, BUTTONS).' },
    status: enumOf(['PENDING', 'APPROVED', 'REJECTED']),
    reason: nullable({ type: 'string', description: 'Why the provider rejected it.' }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  Contact: record({
    id: id('ctc'),
    phone: nullable({ type: 'string', description: 'E.164; one contact per number and tenant.' }),
    email: nullable(string),
    name: nullable(string),
    company_id: nullable(id('cmp')),
    tags: { type: 'array', items: string },
    attributes: contactAttributes,
    opted_out: { type: 'boolean', description: 'The customer wrote STOP (contact.opted_out) and not START since.' },
    created_at: timestamp,
    updated_at: timestamp,
  }),
  ContactActivity: record({
    id: id('act'),
    type: enumOf(['message', 'lead_captured', 'appointment_booked', 'appointment_rescheduled', 'appointment_cancelled', 'deal_created', 'deal_stage_changed', 'note', 'call', 'task']),
    occurred_at: timestamp,
    channel: nullable({ type: 'string', description: 'Messages: the channel (whatsapp, sms, email, …).' }),
    direction: nullable({ ...enumOf(['in', 'out']), description: 'Messages: `in` from the customer, `out` to them.' }),
    text: nullable({ type: 'string', description: "A message's text (a stand-in such as `[image] caption` for others), a note's text, what happened to a deal or appointment." }),
    ref: nullable(record({ kind: enumOf(['message', 'lead', 'appointment', 'deal']), id: string })),
    due_at: nullable({ ...timestamp, description: 'Tasks: when it is due.' }),
  }),
  Pipeline: record({
    id: id('pip'),
    name: string,
    stages: { type: 'array', items: string, description: 'In order; deals open in the first.' },
    is_default: { type: 'boolean', description: 'The tenant’s default pipeline (new, qualified, proposal, won, lost), made on first use.' },
    created_at: timestamp,
  }),
  PipelineList: record({ data: { type: 'array', items: schemaRef('Pipeline'), description: 'The default pipeline first, then by age.' } }),
  Deal: record({
    id: id('del'),
    title: string,
    contact_id: id('ctc'),
    company_id: nullable(id('cmp')),
    pipeline_id: id('pip'),
    stage: { type: 'string', description: 'One of the pipeline’s stages.' },
    value: nullable(
      record({
        amount: { type: 'string', pattern: '^(0|[1-9]\\d{0,14})(\\.\\d{1,4})?$', example: '1234567.89', description: 'A decimal string, exactly as given.' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$', example: 'EUR', description: 'ISO 4217.' },
      }),
    ),
    owner: nullable(id('usr')),
    expected_close_date: nullable({ type: 'string', format: 'date', example: '2026-03-31', description: 'When it is expected to close (a calendar date).' }),
    lead_id: nullable({ ...id('led'), description: 'The captured lead that opened it.' }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  CalendarFeed: record({ url: { type: 'string', format: 'uri', description: 'The secret feed URL (`…/calendar/{token}.ics`): whoever has it reads the appointments.' } }),
  ContactImport: record({
    id: id('imp'),
    status: enumOf(['queued', 'running', 'completed', 'failed']),
    total: nullable({ type: 'integer', description: 'Data rows in the file; null until the job has read it once.' }),
    created: { type: 'integer' },
    updated: { type: 'integer' },
    failed: { type: 'array', items: record({ row: { type: 'integer', description: '1 = the first row after the header.' }, error: string }) },
    error: nullable({ type: 'string', description: 'Why the file could not be read on (status failed).' }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  Company: record({ id: id('cmp'), name: string, domain: nullable(string), attributes: contactAttributes, created_at: timestamp, updated_at: timestamp }),
  ConnectedChannel: record({ ...channel, inbound_token: { type: 'string', description: '360dialog channels only, shown this once.' } }, ['inbound_token', 'address']),
  Conversation: record(conversationSummary),
  ConversationDetail: record(
    {
      ...conversationSummary,
      subject: nullable({ type: 'string', description: 'Email conversations: the subject of the customer’s latest mail that had one (null when none had); absent on other channels.' }),
    messages: { type: 'array', items: conversationMessage, description: 'The whole thread, oldest first.' },
      notes: { type: 'array', items: conversationNote, description: 'Internal notes, oldest first (merge by `at` to interleave).' },
    },
    ['subject'],
  ),
  ConversationMessage: conversationMessage,
  CannedReply: record({
    id: id('cnr'),
    shortcut: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,31}$', example: 'opening-hours' },
    text: { type: 'string', description: 'As written: `{{contact.name}}` and `{{agent.name}}` are filled in where it is inserted.' },
    created_at: timestamp,
    updated_at: timestamp,
  }),
  ConversationNote: conversationNote,
  Team: record({
    id: id('tea'),
    name: string,
    members: { type: 'array', items: id('usr') },
    routing: enumOf(['round_robin', 'least_busy', 'manual']),
    capacity_per_member: { ...nullable({ type: 'integer', minimum: 1 }), description: 'Open conversations a member holds at most; null: no limit.' },
    reassign_after_seconds: { ...nullable({ type: 'integer', minimum: 10 }), description: 'An assignee who sends nothing for this long loses the conversation to the next member; null: never.' },
    timezone: { type: 'string', example: 'Europe/Madrid' },
    business_hours: weeklyHours,
    holidays: { type: 'array', items: { type: 'string', format: 'date' } },
    closed_message: { ...nullable(string), description: 'What a customer handed off outside business hours is told before the next opening time; null: a default in their language.' },
    sla: nullable(record({ first_response_seconds: { type: 'integer' }, resolution_seconds: { type: 'integer' } }, ['first_response_seconds', 'resolution_seconds'])),
    open_now: { type: 'boolean', description: 'Inside business hours now (holidays closed).' },
    next_opening_at: { ...nullable(timestamp), description: 'When it opens next, while closed.' },
    created_at: timestamp,
    updated_at: timestamp,
  }),
  RoutingRules: record({ data: { type: 'array', items: routingRule, description: 'In order: the first whose every condition holds picks the team; none → the oldest team.' } }),
  RoutingRule: routingRule,
  ConversationReport: record({
    data: {
      type: 'array',
      items: record({
        key: { ...nullable(string), description: 'The day (YYYY-MM-DD in tz), the member (usr_…), the team (tea_…) or the channel kind; null: none (unassigned, no team).' },
        opened: { type: 'integer' },
        closed: { type: 'integer' },
        resolved_by_agent: { type: 'integer', description: 'Never handed to a person: what the AI agent resolved alone.' },
        handed_off: { type: 'integer' },
        first_response_p50_s: { ...nullable({ type: 'integer' }), description: 'From the handoff to a person’s first reply, in seconds; null when none to measure.' },
        first_response_p90_s: nullable({ type: 'integer' }),
        resolution_p50_s: { ...nullable({ type: 'integer' }), description: 'From the start to the close, in seconds.' },
        resolution_p90_s: nullable({ type: 'integer' }),
        sla_breaches: { type: 'integer', description: 'Conversations that missed a target of their team’s SLA.' },
        csat_avg: nullable(number),
        csat_count: { type: 'integer' },
      }),
    },
  }),
  Presence: presence,
  PresenceList: record({ data: { type: 'array', items: presence } }),
  KnowledgeGap: record({
    id: id('gap'),
    agent: { type: 'string', description: 'The agent’s name.' },
    question: { type: 'string', description: 'The most asked wording.' },
    examples: { type: 'array', items: string, description: 'The distinct wordings, the most asked first (at most 10).' },
    count: { type: 'integer', description: 'Questions counted in the gap.' },
    language: { type: 'string', example: 'en', description: 'The customers’ language (BCP 47 primary tag).' },
    last_seen_at: timestamp,
    state: enumOf(['open', 'closed', 'dismissed']),
    answer: nullable({ type: 'string', description: 'The FAQ answer the gap was closed with.' }),
    created_at: timestamp,
  }),
  AgentTest: record({
    id: id('tst'),
    agent: { type: 'string', description: 'The agent’s name.' },
    message: { type: 'string', description: 'What the customer writes.' },
    expect: record(
      {
        contains: { type: 'string', description: 'The reply contains this text (case and accents aside).' },
        skill: enumOf(['faq_responder', 'lead_capture', 'appointment_booking']),
        handoff: { type: 'boolean', description: 'The agent hands the conversation to a person (true) or not.' },
        no_answer: { type: 'boolean', description: 'The agent says it does not know (true) or answers.' },
      },
      ['contains', 'skill', 'handoff', 'no_answer'],
    ),
    created_at: timestamp,
  }),
  AgentTestRun: record({
    id: id('run'),
    agent: string,
    version: { type: 'integer', description: 'The agent version the set ran against.' },
    trigger: { ...enumOf(['version', 'documents']), description: 'What ran it: a new version of the agent, or a change of its documents (no new version; compared with the run before it).' },
    status: enumOf(['queued', 'running', 'completed']),
    passed: { type: 'integer' },
    failed: { type: 'integer' },
    cases: {
      type: 'array',
      description: 'Each case of the set as it was when the run began, oldest first.',
      items: record({
        test_id: id('tst'),
        message: string,
        ok: { type: 'boolean' },
        reply: { type: 'string', description: 'What the agent answered (as the first reply of a new conversation).' },
        failures: { type: 'array', items: string, description: 'What of the expectation did not hold; empty when ok.' },
      }),
    },
    fixed: { type: 'array', items: id('tst'), description: 'Cases this version passes that the previous version failed.' },
    broken: { type: 'array', items: id('tst'), description: 'Cases the previous version passed that this one fails.' },
    previous_version: nullable({ type: 'integer', description: 'The version compared with (for a documents change, this version’s run before it); null when there was nothing to compare with.' }),
    created_at: timestamp,
    completed_at: nullable(timestamp),
  }),
  AgentAnalytics: record({
    agent: string,
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    tz: { type: 'string', example: 'Europe/Madrid' },
    data: {
      type: 'array',
      items: record({
        day: { type: 'string', format: 'date' },
        language: { type: 'string', example: 'en' },
        questions: { type: 'integer', description: 'Replies the agent gave.' },
        answered: { type: 'integer', description: 'Answered from its knowledge.' },
        not_known: { type: 'integer' },
        handed_off: { type: 'integer' },
        bookings: { type: 'integer' },
        leads: { type: 'integer' },
      }),
    },
    sources: record({
      most_used: { type: 'array', items: record({ type: enumOf(['faq', 'document', 'instruction']), id: string, title: string, count: { type: 'integer' } }) },
      never_used: { type: 'array', items: record({ type: enumOf(['faq', 'document', 'instruction']), id: string, title: string }) },
    }),
  }),
  MessageFeedback: record({
    conversation_id: id('cnv'),
    message_id: id('msg'),
    verdict: enumOf(['right', 'wrong']),
    note: nullable(string),
    gap_id: nullable({ ...id('gap'), description: 'The knowledge gap the question now counts in (verdict `wrong`).' }),
    at: timestamp,
  }),
  Lead: record({
    id: id('led'),
    name: nullable(string),
    email: nullable(string),
    phone: nullable(string),
    interest: nullable(string),
    conversation_id: id('cnv'),
    contact_id: nullable({ ...id('ctc'), description: 'The contact the lead made or joined (CONTRACT.md §14); null until crm-service has linked it.' }),
    created_at: timestamp,
  }),
  Appointment: record({
    id: id('apt'),
    customer: string,
    starts_at: timestamp,
    ends_at: timestamp,
    timezone: string,
    status: enumOf(['booked', 'cancelled']),
    conversation_id: id('cnv'),
  }),
  Usage: record({ plan: enumOf(PLANS), limit: nullable({ type: 'integer' }), used_today: { type: 'integer' }, resets_at: timestamp }),
  TenantPlan: record({ tenant_id: id('ten'), plan: enumOf(PLANS) }),
  PriceList: record({ data: { type: 'array', items: schemaRef('Price') } }),
  Price: record({ plan: enumOf(BILLING_PLANS), category: enumOf(BILLING_CATEGORIES), unit_price: money, currency, updated_at: timestamp }),
  Wallet: record({
    balance: { ...money, description: 'What the tenant can spend: the sum of its ledger (money held for sends in flight is not in it).' },
    currency,
    low_balance_threshold: money,
    held: { ...money, description: 'Reserved for accepted sends until they are sent (charged) or fail (released).' },
    plan: enumOf(BILLING_PLANS),
    enforced: { type: 'boolean', description: 'A paid send the balance cannot cover is refused with 402 (`BILLING_ENFORCED`, on unless an operator turned it off).' },
  }),
  LlmSettings: record({ base_url: string, model: string, monthly_budget: money, api_key_set: { type: 'boolean', enum: [true] }, api_key_last4: string }),
  LlmSettingsInUse: record(
    {
      source: { ...enumOf(['tenant', 'platform']), description: '`platform`: the tenant has no LLM of its own and its agents use the global one (no other field then).' },
      base_url: string,
      model: string,
      monthly_budget: money,
      api_key_set: { type: 'boolean', enum: [true] },
      api_key_last4: string,
    },
    ['base_url', 'model', 'monthly_budget', 'api_key_set', 'api_key_last4'],
  ),
  MonthUsage: record({
    month: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'The calendar month (UTC), YYYY-MM.' },
    period_start: timestamp,
    period_end: { ...timestamp, description: 'The next month’s start, when the free allowance starts again.' },
    plan: enumOf(BILLING_PLANS),
    free_allowance: nullable({ type: 'integer', description: 'Free messages a month on this plan; null: every message is paid.' }),
    messages: { type: 'integer', description: 'Messages sent this month on every channel (voice minutes and LLM tokens are not messages).' },
    free_left: nullable({ type: 'integer', description: 'What is left of the free allowance; null without one.' }),
    data: { type: 'array', items: record({ channel: string, category: enumOf(BILLING_CATEGORIES), quantity: { type: 'number' } }) },
  }),
  CostEstimate: record({
    amount: { ...money, description: 'What the billable sends cost: `billable` × `unit_price`.' },
    currency,
    category: enumOf(BILLING_CATEGORIES),
    unit_price: money,
    quantity: { type: 'integer' },
    billable: { type: 'integer', description: 'How many of the sends are paid (the rest fit in the free allowance left).' },
    balance: money,
    payable: { type: 'boolean', description: 'The wallet’s balance covers the amount.' },
  }),
  BillingUsage: record({ data: { type: 'array', items: schemaRef('UsageDay') } }),
  UsageDay: record({ day: { type: 'string', format: 'date' }, channel: string, category: enumOf(BILLING_CATEGORIES), quantity: { type: 'number' } }),
  LedgerTransaction: record({
    id: id('txn'),
    type: enumOf(LEDGER_TRANSACTION_TYPES),
    amount: money,
    balance_change: { ...signedMoney, description: 'The effect on the balance (a settlement moves held money to revenue: 0).' },
    balance_after: money,
    currency,
    cause_id: { type: 'string', description: 'The message of a charge, the payment of a top-up, the reference of an adjustment.' },
    description: nullable(string),
    created_at: timestamp,
  }),
  LedgerTransactionPage: pageOf('LedgerTransaction'),
  TopUp: record({
    id: id('top'),
    checkout_url: { type: 'string', format: 'uri', description: 'The payment provider’s checkout page, where the customer pays.' },
    amount: money,
    currency,
    status: enumOf(['pending', 'paid']),
    created_at: timestamp,
  }),
  Invoice: record({
    id: id('inv'),
    number: { type: 'integer', description: 'Gapless per tenant, in the order issued (1, 2, 3, …).' },
    period_start: timestamp,
    period_end: timestamp,
    currency,
    lines: { type: 'array', items: record({ category: string, quantity: { type: 'integer' }, amount: signedMoney }) },
    total: signedMoney,
    payments: { ...money, description: 'Top-ups paid in the period (prepaid money received; not billed).' },
    issued_at: timestamp,
  }),
  InvoicePage: pageOf('Invoice'),
  PaymentWebhookReceived: record({ received: { type: 'boolean', enum: [true] } }),
  TeamMember: record(teamMember),
  InvitedMember: record({ ...teamMember, invite_url: { type: 'string', format: 'uri', description: 'The invitation link, shown this once.' } }),
  Invitation: record({
    email: { type: 'string', format: 'email' },
    name: string,
    role: enumOf(MEMBER_ROLES),
    business: record({ name: string }),
    invited_by: nullable(record({ name: string, email: { type: 'string', format: 'email' } })),
    expires_at: timestamp,
  }),
  SignedInMember: record({
    ...teamMember,
    permissions: { type: 'array', items: permission, description: 'What the member’s role allows; the dashboard shows only this.' },
  }),
  TeamRoles: record({ data: { type: 'array', items: record({ role: enumOf(MEMBER_ROLES), description: string, permissions: { type: 'array', items: permission } }) } }),
  ...Object.fromEntries(
    ['Agent', 'AgentVersionSummary', 'ApiKey', 'Appointment', 'Channel', 'Conversation', 'Document', 'Lead', 'Message', 'TeamMember', 'Template', 'Webhook', 'WebhookDelivery', 'Contact', 'ContactActivity', 'Company', 'Deal', 'CannedReply', 'KnowledgeGap', 'AgentTest', 'Team'].map((item) => [
      `${item}Page`,
      pageOf(item),
    ]),
  ),
  Health: record({ status: string }),
  Readiness: record({ status: enumOf(['ready', 'not_ready']), checks: { type: 'object', additionalProperties: true } }),
};
