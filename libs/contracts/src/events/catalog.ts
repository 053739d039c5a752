import { Topics } from '../topics';
import type { AgentChangedEvent } from './agents';
import type { ChannelChangedEvent } from './channels';
import type { ContactCreatedEvent, ContactDeletedEvent, ContactOptedInEvent, ContactOptedOutEvent, ContactUpdatedEvent } from './contacts';
import type { DealCreatedEvent, DealStageChangedEvent } from './deals';
import type { TemplateStatusEvent } from './templates';
import type { LlmSpendEvent, LlmUsageEvent, TenantPlanChangedEvent, WalletLowBalanceEvent } from './billing';
import type { CampaignCompletedEvent } from './campaigns';
import type { AgentGapOpenedEvent } from './knowledge-gaps';
import type { AgentTestsCompletedEvent } from './agent-tests';
import type { DocumentChangedEvent } from './documents';
import type {
  AppointmentBookedEvent,
  AppointmentCancelledEvent,
  AppointmentRescheduledEvent,
  ConversationHandoffEvent,
  ConversationRatedEvent,
  ConversationSlaBreachedEvent,
  ConversationUpdatedEvent,
  LeadCapturedEvent,
  LeadUpdatedEvent,
} from './engagement';
import type { MessageInboundEvent, MessageOutboundEvent, MessageReceivedEvent, MessageStatusEvent, WhatsappWebhookEvent } from './messages';
import type { VoiceCallEndedEvent } from './voice';

/**
 * Every Kafka event, by the topic it travels on. This interface is the source the event JSON Schemas are generated
 * from (`npm run contracts:generate` → libs/contracts/schemas/<topic>/v<N>.json); tests fail when they drift apart.
 */
export interface EventsByTopic {
  'message.outbound': MessageOutboundEvent;
  'whatsapp.webhook': WhatsappWebhookEvent;
  'message.inbound': MessageInboundEvent;
  'message.received': MessageReceivedEvent;
  'message.status': MessageStatusEvent;
  'agent.changed': AgentChangedEvent;
  'document.changed': DocumentChangedEvent;
  'lead.captured': LeadCapturedEvent;
  'lead.updated': LeadUpdatedEvent;
  'appointment.booked': AppointmentBookedEvent;
  'appointment.rescheduled': AppointmentRescheduledEvent;
  'appointment.cancelled': AppointmentCancelledEvent;
  'conversation.handoff': ConversationHandoffEvent;
  'conversation.updated': ConversationUpdatedEvent;
  'conversation.sla_breached': ConversationSlaBreachedEvent;
  'conversation.rated': ConversationRatedEvent;
  'channel.changed': ChannelChangedEvent;
  'contact.opted_out': ContactOptedOutEvent;
  'contact.opted_in': ContactOptedInEvent;
  'template.status': TemplateStatusEvent;
  'wallet.low_balance': WalletLowBalanceEvent;
  'tenant.plan_changed': TenantPlanChangedEvent;
  'contact.created': ContactCreatedEvent;
  'contact.updated': ContactUpdatedEvent;
  'contact.deleted': ContactDeletedEvent;
  'deal.created': DealCreatedEvent;
  'deal.stage_changed': DealStageChangedEvent;
  'campaign.completed': CampaignCompletedEvent;
  'agent.gap_opened': AgentGapOpenedEvent;
  'agent.tests_completed': AgentTestsCompletedEvent;
  'llm.usage': LlmUsageEvent;
  'llm.spend': LlmSpendEvent;
  'voice.call_ended': VoiceCallEndedEvent;
}
export type EventTopic = keyof EventsByTopic;

export type ServiceName = 'gateway' | 'agent-service' | 'messaging-service' | 'responder-service' | 'webhook-service' | 'crm-service' | 'billing-service' | 'campaign-service';

export interface EventRoute {
  /** How the message key is built: the ordering unit of the topic. */
  key: string;
  producers: ServiceName[];
  consumers: ServiceName[];
  summary: string;
}

/** Who produces and consumes each event topic, and what keys it (documented in docs/asyncapi.yaml). */
export const EVENT_ROUTES: Readonly<Record<EventTopic, EventRoute>> = {
  [Topics.MessageOutbound]: {
    key: '`${tenant_id}:${to}`',
    producers: ['gateway', 'responder-service', 'campaign-service'],
    consumers: ['messaging-service', 'billing-service', 'crm-service', 'responder-service'],
    summary: 'A message to send to a customer: an API send or an agent reply. `data.message_id` is the idempotency key of the send.',
  },
  [Topics.WhatsappWebhook]: {
    key: 'Cloud API: the first `entry[].changes[].value.metadata.phone_number_id` (`unknown` when absent); 360dialog: the channel id from the URL',
    producers: ['gateway'],
    consumers: ['messaging-service'],
    summary: 'A provider notification exactly as received and signature-checked (raw body kept byte for byte).',
  },
  [Topics.MessageInbound]: {
    key: '`${tenant_id}:${from}`',
    producers: ['messaging-service'],
    consumers: ['responder-service', 'crm-service', 'campaign-service'],
    summary: "A customer's message, stored and attributed to a tenant.",
  },
  [Topics.MessageReceived]: {
    key: '`${tenant_id}:${from}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway'],
    summary: "Public webhook event: an inbound message with the agent's reply (or null).",
  },
  [Topics.MessageStatus]: {
    key: '`${tenant_id}:${to}`',
    producers: ['messaging-service'],
    consumers: ['webhook-service', 'gateway', 'billing-service', 'campaign-service'],
    summary: 'Public webhook event: an outbound message changed status.',
  },
  [Topics.AgentChanged]: {
    key: '`${tenant_id}:${name}` (compacted: the last record per agent name survives)',
    producers: ['agent-service'],
    consumers: ['responder-service'],
    summary: 'The whole agent after a change, or `agent: null` when it was deleted.',
  },
  [Topics.DocumentChanged]: {
    key: '`${tenant_id}:${document_id}` (compacted: the last record per document survives)',
    producers: ['agent-service'],
    consumers: ['responder-service'],
    summary: "An agent document's passages once it is ready, or `passages: null` when it or its agent was deleted.",
  },
  [Topics.LeadCaptured]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway', 'crm-service'],
    summary: 'Public webhook event: the lead_capture skill stored a lead (a name and a way to reach the person are known).',
  },
  [Topics.LeadUpdated]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway', 'crm-service'],
    summary: 'Public webhook event: later details changed a captured lead (same lead id; the whole lead as it now is).',
  },
  [Topics.AppointmentBooked]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway', 'crm-service'],
    summary: 'Public webhook event: the appointment_booking skill booked a slot.',
  },
  [Topics.AppointmentRescheduled]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway', 'crm-service'],
    summary: 'Public webhook event: a booked appointment moved to another slot (same appointment id; `previous` is where it was).',
  },
  [Topics.AppointmentCancelled]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway', 'crm-service'],
    summary: 'Public webhook event: a booked appointment was cancelled (its status is now `cancelled`).',
  },
  [Topics.ConversationHandoff]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service', 'gateway', 'messaging-service'],
    summary: 'Public webhook event: a conversation was handed off to a person (by the agent, or a member taking over or replying), with its inbox link.',
  },
  [Topics.ConversationSlaBreached]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service'],
    summary: "Public webhook event: a handed-off conversation missed its team's first-response or resolution target (CONTRACT.md §18); once per target per handoff.",
  },
  [Topics.ConversationRated]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['webhook-service'],
    summary: 'Public webhook event: the customer answered the satisfaction question sent when their conversation was closed (CONTRACT.md §18); once per conversation.',
  },
  [Topics.ConversationUpdated]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['gateway'],
    summary: 'Dashboard only (events stream, not webhooks): an inbox conversation changed; carries it as it now is.',
  },
  [Topics.ChannelChanged]: {
    key: '`${tenant_id}:${channel_id}` (compacted: the last record per channel survives)',
    producers: ['messaging-service'],
    consumers: ['gateway'],
    summary: 'A WhatsApp channel after a change, or `channel: null` once it was disconnected.',
  },
  [Topics.ContactOptedOut]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['messaging-service', 'webhook-service', 'crm-service'],
    summary: "Public webhook event: a customer wrote STOP (or an equivalent) and is out of the tenant's marketing; messaging-service refuses marketing templates to them.",
  },
  [Topics.ContactOptedIn]: {
    key: '`${tenant_id}:${customer}`',
    producers: ['responder-service'],
    consumers: ['messaging-service', 'webhook-service', 'crm-service'],
    summary: "Public webhook event: a customer wrote START (or an equivalent) and may get the tenant's marketing again.",
  },
  [Topics.TemplateStatus]: {
    key: '`${tenant_id}:${template_id}`',
    producers: ['messaging-service'],
    consumers: ['webhook-service', 'billing-service'],
    summary: "Public webhook event: the provider approved or rejected a message template (the whole template as it now is, with the rejection's reason).",
  },
  [Topics.TenantPlanChanged]: {
    key: '`tenant_id`',
    producers: ['gateway'],
    consumers: ['billing-service'],
    summary: "An operator changed a tenant's plan (`PATCH /admin/v1/tenants/{tenant_id}`); billing-service prices the tenant's sends by it.",
  },
  [Topics.WalletLowBalance]: {
    key: '`tenant_id`',
    producers: ['billing-service'],
    consumers: ['webhook-service'],
    summary: "Public webhook event: a tenant's prepaid balance fell below its low-balance threshold; sent once per crossing.",
  },
  [Topics.ContactCreated]: {
    key: '`${tenant_id}:${contact_id}`',
    producers: ['crm-service'],
    consumers: ['webhook-service'],
    summary: "Public webhook event: a contact was created (by the API, an import, a customer's first message or a captured lead).",
  },
  [Topics.ContactUpdated]: {
    key: '`${tenant_id}:${contact_id}`',
    producers: ['crm-service'],
    consumers: ['webhook-service'],
    summary: 'Public webhook event: a contact changed (the whole contact as it now is).',
  },
  [Topics.ContactDeleted]: {
    key: '`${tenant_id}:${contact_id}`',
    producers: ['crm-service'],
    consumers: ['webhook-service', 'messaging-service', 'responder-service', 'campaign-service', 'crm-service'],
    summary: 'Public webhook event: a contact was deleted; `phone` and `email` say whose data to erase.',
  },
  [Topics.DealCreated]: {
    key: '`${tenant_id}:${deal_id}`',
    producers: ['crm-service'],
    consumers: ['webhook-service', 'crm-service'],
    summary: 'Public webhook event: a deal was created (by the API, or opened in the first stage of the default pipeline by a captured lead).',
  },
  [Topics.DealStageChanged]: {
    key: '`${tenant_id}:${deal_id}`',
    producers: ['crm-service'],
    consumers: ['webhook-service', 'crm-service'],
    summary: 'Public webhook event: a deal moved to another stage of its pipeline (the deal as it now is, and `previous_stage`).',
  },
  [Topics.CampaignCompleted]: {
    key: '`${tenant_id}:${campaign_id}`',
    producers: ['campaign-service'],
    consumers: ['webhook-service'],
    summary: "Public webhook event: a campaign handed every recipient's message over or skipped it (the campaign with its counts as they were then).",
  },
  [Topics.AgentGapOpened]: {
    key: '`${tenant_id}:${agent}`',
    producers: ['responder-service'],
    consumers: ['webhook-service'],
    summary: "Public webhook event: a customer's question the agent could not answer (it said it did not know, or gave the conversation to a person) matched none of the agent's open knowledge gaps and opened a new one; sent once per gap.",
  },
  [Topics.AgentTestsCompleted]: {
    key: '`${tenant_id}:${agent}`',
    producers: ['responder-service'],
    consumers: ['webhook-service'],
    summary: "Public webhook event: an agent version's test set ran in the background (CONTRACT.md §19): how many cases passed and failed, and which this version fixed or broke against the previous one.",
  },
  [Topics.LlmUsage]: {
    key: '`tenant_id`',
    producers: ['responder-service'],
    consumers: ['billing-service'],
    summary: "The tokens one LLM call used for a tenant's reply, and whose key served it; billing-service meters them (category `llm_token`) and charges the price book's token price for the platform's key (a call on the tenant's own key only counts towards its LLM budget).",
  },
  [Topics.LlmSpend]: {
    key: '`tenant_id`',
    producers: ['billing-service'],
    consumers: ['responder-service'],
    summary: "What a tenant's LLM tokens of the month have cost so far (a running total); past the tenant's LLM budget the responder answers without its LLM.",
  },
  [Topics.VoiceCallEnded]: {
    key: '`${tenant_id}:${call_sid}`',
    producers: ['messaging-service'],
    consumers: ['billing-service', 'responder-service'],
    summary: "A call to a voice channel ended (Twilio's final status callback): billing-service meters its billable minutes as `voice_minute`, once per call, and responder-service closes the caller's conversation.",
  },
};

export const EVENT_TOPICS = Object.keys(EVENT_ROUTES) as EventTopic[];
