/**
 * Kafka topics. Names are the wire contract between services; partition counts are created explicitly
 * (auto-creation is off on our brokers). Message keys carry the ordering unit (tenant + customer number).
 */
export const Topics = {
  /** Messages to send to a customer: API sends and agent replies. Key: `${tenant_id}:${to}`. */
  MessageOutbound: 'message.outbound',
  /** Raw provider notifications exactly as received and signature-checked by the gateway. Key: provider + path id. */
  WhatsappWebhook: 'whatsapp.webhook',
  /** Inbound customer messages, normalised and attributed to a tenant. Key: `${tenant_id}:${from}`. */
  MessageInbound: 'message.inbound',
  /** Public event: an inbound message with the agent's reply. Key: `${tenant_id}:${from}`. */
  MessageReceived: 'message.received',
  /** Public event: an outbound message changed status. Key: `${tenant_id}:${to}`. */
  MessageStatus: 'message.status',
  /** Agent configuration changed (full record; compacted). Key: `${tenant_id}:${name}`. */
  AgentChanged: 'agent.changed',
  /** An agent document's passages once ready, or its deletion (compacted). Key: `${tenant_id}:${document_id}`. */
  DocumentChanged: 'document.changed',
  /** Public event: the lead_capture skill stored a lead (a name and a way to reach the person). Key: `${tenant_id}:${customer}`. */
  LeadCaptured: 'lead.captured',
  /** Public event: later details changed a captured lead (same lead id). Key: `${tenant_id}:${customer}`. */
  LeadUpdated: 'lead.updated',
  /** Public event: the appointment_booking skill booked a slot. Key: `${tenant_id}:${customer}`. */
  AppointmentBooked: 'appointment.booked',
  /** Public event: a booked appointment moved to another slot (same appointment id). Key: `${tenant_id}:${customer}`. */
  AppointmentRescheduled: 'appointment.rescheduled',
  /** Public event: a booked appointment was cancelled. Key: `${tenant_id}:${customer}`. */
  AppointmentCancelled: 'appointment.cancelled',
  /** Public event: a conversation was handed off to a human. Key: `${tenant_id}:${customer}`. */
  ConversationHandoff: 'conversation.handoff',
  /** Dashboard only: an inbox conversation changed (message, state, assignee, unread, note). Key: `${tenant_id}:${customer}`. */
  ConversationUpdated: 'conversation.updated',
  /** A WhatsApp channel changed or was disconnected (full record; compacted). Key: `${tenant_id}:${channel_id}`. */
  ChannelChanged: 'channel.changed',
  /** Public event: a customer opted out of the tenant's marketing (STOP). Key: `${tenant_id}:${customer}`. */
  ContactOptedOut: 'contact.opted_out',
  /** Public event: a customer opted back in (START). Key: `${tenant_id}:${customer}`. */
  ContactOptedIn: 'contact.opted_in',
  /** Public event: the provider approved or rejected a message template. Key: `${tenant_id}:${template_id}`. */
  TemplateStatus: 'template.status',
  /** Public event: a wallet's balance fell below its low-balance threshold (once per crossing). Key: `tenant_id`. */
  WalletLowBalance: 'wallet.low_balance',
  /** An operator changed a tenant's plan (the latest per tenant; compacted). Key: `tenant_id`. */
  TenantPlanChanged: 'tenant.plan_changed',
  /** Public event: a contact was created (API, import, a customer's first message, a lead). Key: `${tenant_id}:${contact_id}`. */
  ContactCreated: 'contact.created',
  /** Public event: a contact changed (the whole contact as it now is). Key: `${tenant_id}:${contact_id}`. */
  ContactUpdated: 'contact.updated',
  /** Public event: a contact was deleted. Key: `${tenant_id}:${contact_id}`. */
  ContactDeleted: 'contact.deleted',
  /** Public event: a deal was created (API or a captured lead). Key: `${tenant_id}:${deal_id}`. */
  DealCreated: 'deal.created',
  /** Public event: a deal moved to another stage. Key: `${tenant_id}:${deal_id}`. */
  DealStageChanged: 'deal.stage_changed',
  /** Public event: a campaign handed every recipient's message over (or skipped it). Key: `${tenant_id}:${campaign_id}`. */
  CampaignCompleted: 'campaign.completed',
  /** Public event: a customer's question the agent could not answer opened a knowledge gap. Key: `${tenant_id}:${agent}`. */
  AgentGapOpened: 'agent.gap_opened',
  /** Public event: a handed-off conversation missed its team's first-response or resolution target. Key: `${tenant_id}:${customer}`. */
  ConversationSlaBreached: 'conversation.sla_breached',
  /** Public event: a customer rated a closed conversation (CSAT, 1–5). Key: `${tenant_id}:${customer}`. */
  ConversationRated: 'conversation.rated',
  /** Public event: an agent version's test set ran (passed, failed, fixed, broken). Key: `${tenant_id}:${agent}`. */
  AgentTestsCompleted: 'agent.tests_completed',
  /** Tokens one LLM call used, which billing meters (CONTRACT.md §16). Key: `tenant_id`. */
  LlmUsage: 'llm.usage',
  /** What a tenant's LLM tokens cost this month so far (the latest per tenant; compacted). Key: `tenant_id`. */
  LlmSpend: 'llm.spend',
  /** A voice call ended; billing meters its minutes once per call (CONTRACT.md §17). Key: `${tenant_id}:${call_sid}`. */
  VoiceCallEnded: 'voice.call_ended',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

/** Request topics for Kafka request-reply, one per owning service. The pattern travels in a header. */
export const RpcTopics = {
  agents: 'rpc.agent-service',
  messaging: 'rpc.messaging-service',
  webhooks: 'rpc.webhook-service',
  responder: 'rpc.responder-service',
  billing: 'rpc.billing-service',
  crm: 'rpc.crm-service',
  campaigns: 'rpc.campaign-service',
} as const;
export type RpcService = keyof typeof RpcTopics;

/** Replies to request-reply calls. Each caller process reads it with a group of its own, so many callers work. */
export const RPC_REPLY_TOPIC = 'rpc.replies';

/** Suffix of the dead-letter topic of each consumed topic. */
export const DLQ_SUFFIX = '.dlq';

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Broker-side topic configs (retention, compaction). */
  config?: Record<string, string>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Provider intake accepts bodies up to 10 MiB (CONTRACT.md §1) and queues them whole, JSON-escaped inside an
 * envelope (up to about twice the size); the broker's default of 1 MiB per message would refuse them.
 */
const PROVIDER_NOTIFICATION_MAX_BYTES = String(21 * 1024 * 1024);

/**
 * Document uploads reach agent-service whole (≤ 10 MiB, base64 in the request: about 14 MiB), and a ready document's
 * passages travel in one `document.changed` (its text is capped at 8 MiB by agent-service). A contact import's CSV
 * (≤ 16 MiB, CONTRACT.md §14) reaches crm-service whole on its request topic too.
 */
const DOCUMENT_MAX_BYTES = String(21 * 1024 * 1024);

/** Every topic the platform uses, with its partition count. Created by each service at start-up (idempotent). */
export const TOPIC_SPECS: readonly TopicSpec[] = [
  { name: Topics.MessageOutbound, partitions: 8 },
  { name: Topics.WhatsappWebhook, partitions: 8, config: { 'max.message.bytes': PROVIDER_NOTIFICATION_MAX_BYTES } },
  { name: Topics.MessageInbound, partitions: 8 },
  { name: Topics.MessageReceived, partitions: 8 },
  { name: Topics.MessageStatus, partitions: 8 },
  { name: Topics.AgentChanged, partitions: 4, config: { 'cleanup.policy': 'compact' } },
  { name: Topics.DocumentChanged, partitions: 4, config: { 'cleanup.policy': 'compact', 'max.message.bytes': DOCUMENT_MAX_BYTES } },
  { name: Topics.LeadCaptured, partitions: 4 },
  { name: Topics.LeadUpdated, partitions: 4 },
  { name: Topics.AppointmentBooked, partitions: 4 },
  { name: Topics.AppointmentRescheduled, partitions: 4 },
  { name: Topics.AppointmentCancelled, partitions: 4 },
  { name: Topics.ConversationHandoff, partitions: 4 },
  { name: Topics.ConversationUpdated, partitions: 4, config: { 'retention.ms': String(DAY_MS) } },
  { name: Topics.ChannelChanged, partitions: 4, config: { 'cleanup.policy': 'compact' } },
  { name: Topics.ContactOptedOut, partitions: 4 },
  { name: Topics.ContactOptedIn, partitions: 4 },
  { name: Topics.TemplateStatus, partitions: 4 },
  { name: Topics.WalletLowBalance, partitions: 4 },
  { name: Topics.TenantPlanChanged, partitions: 4, config: { 'cleanup.policy': 'compact' } },
  { name: Topics.ContactCreated, partitions: 4 },
  { name: Topics.ContactUpdated, partitions: 4 },
  { name: Topics.ContactDeleted, partitions: 4 },
  { name: Topics.DealCreated, partitions: 4 },
  { name: Topics.DealStageChanged, partitions: 4 },
  { name: Topics.CampaignCompleted, partitions: 4 },
  { name: Topics.AgentGapOpened, partitions: 4 },
  { name: Topics.AgentTestsCompleted, partitions: 4 },
  { name: Topics.ConversationSlaBreached, partitions: 4 },
  { name: Topics.ConversationRated, partitions: 4 },
  { name: Topics.LlmUsage, partitions: 4 },
  { name: Topics.LlmSpend, partitions: 4, config: { 'cleanup.policy': 'compact' } },
  { name: Topics.VoiceCallEnded, partitions: 4 },
  ...Object.values(RpcTopics).map((name) => ({
    name,
    partitions: 4,
    config: { 'retention.ms': String(DAY_MS), ...(name === RpcTopics.agents || name === RpcTopics.crm ? { 'max.message.bytes': DOCUMENT_MAX_BYTES } : {}) },
  })),
  { name: RPC_REPLY_TOPIC, partitions: 4, config: { 'retention.ms': String(DAY_MS) } },
  ...[
    Topics.MessageOutbound,
    Topics.WhatsappWebhook,
    Topics.MessageInbound,
    Topics.MessageReceived,
    Topics.MessageStatus,
    Topics.AgentChanged,
    Topics.DocumentChanged,
    Topics.LeadCaptured,
    Topics.LeadUpdated,
    Topics.AppointmentBooked,
    Topics.AppointmentRescheduled,
    Topics.AppointmentCancelled,
    Topics.ConversationHandoff,
    Topics.ContactOptedOut,
    Topics.ContactOptedIn,
    Topics.TemplateStatus,
    Topics.WalletLowBalance,
    Topics.TenantPlanChanged,
    Topics.ContactCreated,
    Topics.ContactUpdated,
    Topics.ContactDeleted,
    Topics.DealCreated,
    Topics.DealStageChanged,
    Topics.CampaignCompleted,
    Topics.AgentGapOpened,
    Topics.LlmUsage,
    Topics.LlmSpend,
    Topics.VoiceCallEnded,
  ].map(
    (name) => ({
      name: `${name}${DLQ_SUFFIX}`,
      partitions: 1,
      config: {
        'retention.ms': String(30 * DAY_MS),
        ...(name === Topics.WhatsappWebhook ? { 'max.message.bytes': PROVIDER_NOTIFICATION_MAX_BYTES } : {}),
        ...(name === Topics.DocumentChanged ? { 'max.message.bytes': DOCUMENT_MAX_BYTES } : {}),
      },
    }),
  ),
];
