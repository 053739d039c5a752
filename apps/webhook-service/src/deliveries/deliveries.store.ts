import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId } from '@parley/contracts';
import { DataSource } from 'typeorm';
import type { DeliveryStatus } from './delivery.entity';

export interface IncomingEvent {
  id: string;
  tenantId: string;
  type: string;
  /** The exact webhook body. */
  body: string;
  occurredAt: Date;
}

/** A delivery claimed for one attempt, with what the attempt needs (one round trip). */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  endpointId: string;
  eventId: string;
  attemptCount: number;
  dueAt: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  body: string;
}

export interface AttemptRecord {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export type AttemptOutcome =
  | { status: 'succeeded' }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'dead' }
  /** The endpoint answered 410: disable it and give up on everything pending for it. */
  | { status: 'gone'; reason: string };

interface ClaimRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
  next_attempt_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  body: string;
}

/** SQL of the delivery queue: fan-out on ingest, claims with leases, and the result of each attempt. */
@Injectable()
export class DeliveriesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Stores an event and one pending delivery per enabled endpoint of its tenant subscribed to its type, in one
   * transaction. Idempotent on the event id: a redelivered event creates nothing (returns 0).
   */
  async ingest(event: IncomingEvent): Promise<number> {
    return this.db.transaction(async (tx) => {
      const inserted: unknown[] = await tx.query(
        `INSERT INTO events (id, tenant_id, type, payload, occurred_at) VALUES ($1, $2, $3, $4::json, $5)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [event.id, event.tenantId, event.type, event.body, event.occurredAt],
      );
      if (inserted.length === 0) return 0;
      const endpoints: { id: string }[] = await tx.query(
        `SELECT id FROM endpoints WHERE tenant_id = $1 AND enabled AND events @> jsonb_build_array($2::text) ORDER BY id`,
        [event.tenantId, event.type],
      );
      if (endpoints.length === 0) return 0;
      const created: unknown[] = await tx.query(
        `INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, attempt_count, next_attempt_at)
         SELECT d.id, d.endpoint_id, $1, $2, 'pending', 0, now() FROM unnest($3::text[], $4::text[]) AS d(id, endpoint_id)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
        [event.id, event.tenantId, endpoints.map(() => newId('dlv')), endpoints.map((e) => e.id)],
      );
      return created.length;
    });
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints for one attempt each, by setting a lease
   * (`locked_until`); `FOR UPDATE SKIP LOCKED` lets several workers claim side by side, and a crashed worker's
   * claims come due again when their lease runs out. No endpoint gets more than `perEndpointCap` attempts in
   * flight (counted across workers), and endpoints at their cap are skipped, so one slow endpoint cannot take
   * every slot or hold the queue's head.
   */
  async claimDue(limit: number, perEndpointCap: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    // An UPDATE answers [rows, affected count] through TypeORM.
    const [rows] = (await this.db.query(
      `WITH busy AS (
         SELECT endpoint_id, count(*)::int AS n FROM deliveries
         WHERE status = 'pending' AND locked_until IS NOT NULL AND locked_until > now()
         GROUP BY endpoint_id
       ), candidates AS (
         SELECT d.id, d.endpoint_id, d.next_attempt_at
         FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id AND e.enabled
         WHERE d.status = 'pending' AND d.next_attempt_at <= now()
           AND (d.locked_until IS NULL OR d.locked_until <= now())
           AND NOT EXISTS (SELECT 1 FROM busy b WHERE b.endpoint_id = d.endpoint_id AND b.n >= $2)
         ORDER BY d.next_attempt_at
         LIMIT $1 * 4
         FOR UPDATE OF d SKIP LOCKED
       ), ranked AS (
         SELECT c.id, c.next_attempt_at,
                row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) + coalesce(b.n, 0) AS slot
         FROM candidates c LEFT JOIN busy b ON b.endpoint_id = c.endpoint_id
       ), chosen AS (
         SELECT id FROM ranked WHERE slot <= $2 ORDER BY slot, next_attempt_at LIMIT $1
       )
       UPDATE deliveries d SET locked_until = now() + make_interval(secs => $3), updated_at = now()
       FROM chosen, endpoints e, events ev
       WHERE d.id = chosen.id AND e.id = d.endpoint_id AND ev.id = d.event_id
       RETURNING d.id, d.tenant_id, d.endpoint_id, d.event_id, d.attempt_count, d.next_attempt_at,
                 e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, ev.payload::text AS body`,
      [limit, perEndpointCap, leaseSeconds],
    )) as [ClaimRow[], number];
    return rows.map(toClaimed);
  }

  /**
   * Records one attempt and its outcome, releasing the lease. Returns false (and records nothing) when the
   * delivery moved on meanwhile: its lease ran out and another worker recorded the attempt, or the endpoint
   * was disabled by a 410 seen on another delivery.
   */
  async recordAttempt(tenantId: string, delivery: ClaimedDelivery, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<boolean> {
    const status: DeliveryStatus = outcome.status === 'gone' ? 'dead' : outcome.status;
    const nextAttemptAt = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
    return this.db.transaction(async (tx) => {
      const [, updated] = (await tx.query(
        `UPDATE deliveries SET status = $3, attempt_count = $4, next_attempt_at = $5, last_status_code = $6, locked_until = NULL, updated_at = now()
         WHERE id = $1 AND tenant_id = $2 AND status = 'pending' AND attempt_count = $4 - 1`,
        [delivery.id, tenantId, status, attempt.attempt, nextAttemptAt, attempt.statusCode],
      )) as [unknown, number];
      if (updated === 0) return false;
      await tx.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error, response_excerpt)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [delivery.id, attempt.attempt, attempt.attemptedAt, attempt.statusCode, attempt.durationMs, attempt.error, attempt.responseExcerpt],
      );
      switch (outcome.status) {
        case 'succeeded':
          await tx.query(`UPDATE endpoints SET failing_since = NULL WHERE id = $1 AND tenant_id = $2 AND failing_since IS NOT NULL`, [delivery.endpointId, tenantId]);
          break;
        case 'gone':
          await tx.query(`UPDATE endpoints SET enabled = false, disabled_reason = $3, updated_at = now() WHERE id = $1 AND tenant_id = $2`, [
            delivery.endpointId,
            tenantId,
            outcome.reason,
          ]);
          await tx.query(
            `UPDATE deliveries SET status = 'dead', next_attempt_at = NULL, locked_until = NULL, updated_at = now()
             WHERE endpoint_id = $1 AND tenant_id = $2 AND status = 'pending'`,
            [delivery.endpointId, tenantId],
          );
          break;
        case 'pending':
        case 'dead':
          // The start of a run of failures: what disabling after days of continuous failure will measure.
          await tx.query(`UPDATE endpoints SET failing_since = now() WHERE id = $1 AND tenant_id = $2 AND failing_since IS NULL`, [delivery.endpointId, tenantId]);
          break;
      }
      return true;
    });
  }

  /** Gives claimed deliveries back at once (shutdown), instead of letting their leases run out. */
  async releaseLeases(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(`UPDATE deliveries SET locked_until = NULL WHERE id = ANY($1::text[]) AND status = 'pending'`, [ids]);
  }

  /** Deletes events past the replay window whose deliveries are all finished; returns how many. */
  async purgeEvents(olderThanDays: number, batch = 1000): Promise<number> {
    const [, deleted] = (await this.db.query(
      `DELETE FROM events WHERE id IN (
         SELECT ev.id FROM events ev
         WHERE ev.created_at < now() - make_interval(days => $1)
           AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = ev.id AND d.status = 'pending')
         LIMIT $2)`,
      [olderThanDays, batch],
    )) as [unknown, number];
    return deleted;
  }
}

function toClaimed(row: ClaimRow): ClaimedDelivery {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    attemptCount: row.attempt_count,
    dueAt: row.next_attempt_at,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    body: row.body,
  };
}
