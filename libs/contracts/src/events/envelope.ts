/**
 * Every Kafka event is an envelope. `id` is the idempotency key consumers deduplicate on; `x-request-id`
 * travels in the Kafka headers. Only additive changes are allowed within a `version`.
 */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  version: 1;
  /** null only for raw provider notifications, whose tenant is not known until they are parsed. */
  tenant_id: string | null;
  occurred_at: string;
  data: TData;
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
} as const;
