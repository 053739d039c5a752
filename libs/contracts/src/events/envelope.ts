/**
 * Every Kafka event is an envelope. `id` is the idempotency key consumers deduplicate on; `x-request-id`
 * travels in the Kafka headers. Only additive changes are allowed within a `version`.
 */
// A topic's events carry its current version (EVENT_VERSIONS); `EventEnvelope` without a literal type is any envelope.
export interface EventEnvelope<TType extends string = string, TData = unknown, TVersion extends number = string extends TType ? number : EnvelopeVersion<TType>> {
  id: string;
  type: TType;
  version: TVersion;
  /** null only for raw provider notifications, whose tenant is not known until they are parsed. */
  tenant_id: string | null;
  occurred_at: string;
  data: TData;
}

/**
 * The current envelope version of each topic whose events moved past version 1 (every other topic is at 1). Version
 * 2 of the message and channel events admits the `sms` and `email` channels (CONTRACT.md §17): an enum value added,
 * which consumers of version 1 do not handle; version 3 of the same events admits the `voice` channel. Older versions'
 * schemas and examples stay recorded beside the new ones.
 */
export const EVENT_VERSIONS = {
  'message.outbound': 3,
  'whatsapp.webhook': 2,
  'message.inbound': 3,
  'message.received': 3,
  'message.status': 3,
  'channel.changed': 3,
  // `channel: "sms"`: a carrier keyword on an SMS number (CONTRACT.md §17).
  'contact.opted_out': 2,
  'contact.opted_in': 2,
  // `channel` beyond whatsapp: a conversation on SMS, email or a voice call (CONTRACT.md §17).
  'conversation.handoff': 2,
  'conversation.updated': 2,
} as const;

export type EnvelopeVersion<T extends string> = T extends keyof typeof EVENT_VERSIONS ? (typeof EVENT_VERSIONS)[T] : 1;

/** The envelope version events of `type` are published with. */
export function envelopeVersion<T extends string>(type: T): EnvelopeVersion<T> {
  return ((EVENT_VERSIONS as Record<string, number>)[type] ?? 1) as EnvelopeVersion<T>;
}

/** Kafka header names used across services. */
export const Headers = {
  RequestId: 'x-request-id',
  EventType: 'event-type',
  RpcPattern: 'rpc-pattern',
  CorrelationId: 'correlation-id',
  ReplyTopic: 'reply-topic',
  DlqError: 'dlq-error',
  DlqSourceTopic: 'dlq-source-topic',
  DlqAttempts: 'dlq-attempts',
  /**
   * Routing fact of `message.outbound` and `message.status`: `yes` for a campaign's message, `no` for any other. A
   * consumer that wants only one kind skips the rest unread (libs/kafka `SkipUnreadWhen`); a record without it (from
   * before the header existed) is read.
   */
  Campaign: 'campaign',
  /** Routing fact of `message.outbound`: its `data.origin` (`api` or `agent`), for consumers of one kind only. */
  Origin: 'origin',
} as const;
