import type { WebhookDeliveryRecord } from '@parley/contracts';
import type { AttemptRow, DeliveryRow } from './deliveries.store';

/** The public delivery record with its attempts (CONTRACT.md §5). */
export function toDeliveryRecord(row: DeliveryRow, attempts: AttemptRow[]): WebhookDeliveryRecord {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .map((a) => ({
        attempt: a.attempt,
        attempted_at: a.attempted_at.toISOString(),
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        error: a.error,
        response_excerpt: a.response_excerpt,
      })),
  };
}
