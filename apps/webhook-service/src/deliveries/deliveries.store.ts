import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { newId, type WebhookEndpointDisabledData } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { DeliveryStatus } from './delivery.entity';

export interface IncomingEvent {
  id: string;
  tenantId: string;
  type: string;
  /** The exact webhook body. */
  body: string;
  occurredAt: Date;
  /** The event's conversation (see orderingKeyOf); null when it has none. */
  orderingKey: string | null;
}

/** A delivery claimed for one attempt, with what the attempt needs (one round trip). */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  endpointId: string;
  eventId: string;
  attemptCount: number;
  /** Attempts made before the last manual retry or replay; the schedule counts from here. */
  retryBase: number;
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
  | { status: 'gone' };

/** Why the service disabled an endpoint: the `reason` of `webhook.endpoint_disabled`. */
export type DisableReason = 'gone' | 'failing_for_5_days';

const DISABLE_REASON_TEXT: Record<DisableReason, string> = {
  gone: 'The endpoint answered 410 Gone.',
  failing_for_5_days: 'Every attempt failed for 5 days.',
};

/** An endpoint failing continuously this long is disabled (CONTRACT.md §5). */
export const DISABLE_AFTER_FAILING_DAYS = 5;

/** An event of one endpoint's delivery log, as read for `deliveries.list`. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

/** A transaction's (or the data source's) query function. */
type Query = Pick<EntityManager, 'query'>;

interface ClaimRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  attempt_count: number;
  retry_base: number;
  next_attempt_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  body: string;
}

/**
 * A delivery id made in SQL, shaped like newId('dlv') (a ULID: 10 characters of time, 16 of randomness) for a row of
 * `s` (its `rank` in the statement, 16 `random` bytes): the statement's time, then the rank in 4 characters, then 12
 * random ones, so the deliveries one statement creates sort by id in their rank, as (created_at, id) ordering needs.
 */
const DELIVERY_ID = `'dlv_' || (
  SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (CASE
      WHEN k < 10 THEN (floor(extract(epoch FROM now()) * 1000)::bigint >> (5 * (9 - k))) & 31
      WHEN k < 14 THEN (s.rank::bigint >> (5 * (13 - k))) & 31
      ELSE get_byte(s.random, k - 14) & 31 END)::int + 1, 1), '' ORDER BY k)
  FROM generate_series(0, 25) k)`;

/** Rows per statement when replay creates deliveries. */
const REPLAY_BATCH = 1000;

/** The channel new deliveries and endpoint changes NOTIFY (migration DeliveriesNotify). */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/** SQL of the delivery queue: fan-out on ingest, claims with leases, and the result of each attempt. */
@Injectable()
export class DeliveriesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Stores events and one pending delivery per enabled endpoint of each event's tenant subscribed to its type, in one
   * statement (the hot path: every public event of every tenant; atomic without a transaction of its own, so an event
   * no endpoint subscribes to costs one round trip per batch). Idempotent on the event id: a redelivered event creates
   * nothing. Answers, per event and in order, how many deliveries it created. Deliveries are created in the events'
   * order and their ids sort in it (DELIVERY_ID), so an ordered endpoint sees a conversation's events in order.
   */
  async ingestMany(events: IncomingEvent[]): Promise<number[]> {
    if (events.length === 0) return [];
    const created = (await this.db.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[]) WITH ORDINALITY
           AS i(id, tenant_id, type, payload, occurred_at, ordering_key, n)
       ), inserted AS (
         INSERT INTO events (id, tenant_id, type, payload, occurred_at, ordering_key)
         SELECT id, tenant_id, type, payload::json, occurred_at, ordering_key FROM input ORDER BY n
         ON CONFLICT (id) DO NOTHING RETURNING id, tenant_id, type
       ), subscribed AS (
         SELECT i.id AS event_id, i.tenant_id, input.ordering_key, e.id AS endpoint_id,
           row_number() OVER (ORDER BY input.n, e.id) AS rank, uuid_send(gen_random_uuid()) AS random
         FROM inserted i JOIN input ON input.id = i.id
         JOIN endpoints e ON e.tenant_id = i.tenant_id AND e.enabled AND e.events @> jsonb_build_array(i.type)
       ), created AS (
         INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, attempt_count, next_attempt_at, ordering_key)
         SELECT ${DELIVERY_ID}, s.endpoint_id, s.event_id, s.tenant_id, 'pending', 0, now(), s.ordering_key
         FROM subscribed s ORDER BY s.rank
         ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING event_id
       )
       SELECT event_id, count(*)::int AS n FROM created GROUP BY event_id`,
      [
        events.map((e) => e.id),
        events.map((e) => e.tenantId),
        events.map((e) => e.type),
        events.map((e) => e.body),
        events.map((e) => e.occurredAt),
        events.map((e) => e.orderingKey),
      ],
    )) as { event_id: string; n: number }[];
    const count = new Map(created.map((row) => [row.event_id, row.n]));
    return events.map((e) => count.get(e.id) ?? 0);
  }

  /** Stores an event for one endpoint only, whatever it subscribes to (`webhook.test`). */
  async ingestForEndpoint(tenantId: string, endpointId: string, event: IncomingEvent): Promise<void> {
    await this.db.transaction((tx) => this.insertEvent(tx, { ...event, tenantId }, endpointId));
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints for one attempt each, by setting a lease
   * (`locked_until`); `FOR UPDATE SKIP LOCKED` lets several workers claim side by side, and a crashed worker's
   * claims come due again when their lease runs out. The queue is read per endpoint: no endpoint gets more than
   * `perEndpointCap` attempts in flight (counted across workers), an endpoint at its cap is not read at all, and the
   * others share the claim (first slots first), so a dead endpoint's backlog costs each claim one index probe instead
   * of a walk past all its rows. On an ordered endpoint a delivery waits while an earlier one of the same conversation
   * is pending (in flight or waiting for a retry); other conversations and endpoints go on.
   *
   * Also answers, from the same look at the queue, the milliseconds until the next delivery it did not claim comes due
   * (negative: one is due now but was not claimable, its endpoint at its cap or an earlier one of its conversation
   * pending; null: none waits), so a pass needs no second statement to know how long to sleep. Leases of a crashed
   * worker are left to the dispatcher's safety sweep.
   */
  async claimDue(limit: number, perEndpointCap: number, leaseSeconds: number): Promise<{ claimed: ClaimedDelivery[]; nextDueInMs: number | null }> {
    const rows = (await this.db.query(
      `WITH RECURSIVE queued(endpoint_id) AS (
         -- Every endpoint with pending deliveries, one index probe each (a skip scan of deliveries_endpoint_queue).
         (SELECT endpoint_id FROM deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
         UNION ALL
         SELECT (SELECT d.endpoint_id FROM deliveries d WHERE d.status = 'pending' AND d.endpoint_id > q.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
         FROM queued q WHERE q.endpoint_id IS NOT NULL
       ), busy AS (
         SELECT endpoint_id, count(*)::int AS n FROM deliveries
         WHERE status = 'pending' AND locked_until IS NOT NULL AND locked_until > now()
         GROUP BY endpoint_id
       ), roomy AS (
         -- Endpoints below their cap with due work; they share the claim.
         SELECT e.id, e.ordered, coalesce(b.n, 0) AS busy, count(*) OVER () AS endpoints
         FROM queued q JOIN endpoints e ON e.id = q.endpoint_id AND e.enabled
         LEFT JOIN busy b ON b.endpoint_id = q.endpoint_id
         WHERE coalesce(b.n, 0) < $2 AND EXISTS (
           SELECT 1 FROM deliveries d WHERE d.endpoint_id = q.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
             AND (d.locked_until IS NULL OR d.locked_until <= now()))
       ), candidates AS (
         SELECT c.id, c.next_attempt_at, r.busy + row_number() OVER (PARTITION BY r.id ORDER BY c.next_attempt_at, c.id) AS slot
         FROM roomy r CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM deliveries d
           WHERE d.endpoint_id = r.id AND d.status = 'pending' AND d.next_attempt_at <= now()
             AND (d.locked_until IS NULL OR d.locked_until <= now())
             AND NOT (r.ordered AND d.ordering_key IS NOT NULL AND EXISTS (
               SELECT 1 FROM deliveries p
               WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.status = 'pending'
                 AND (p.created_at, p.id) < (d.created_at, d.id)))
           ORDER BY d.next_attempt_at, d.id
           -- No more than the endpoint's room, nor its fair share of the claim: rows are locked as they are read.
           LIMIT least($2 - r.busy, ceil($1::numeric / r.endpoints)::int)
           FOR UPDATE OF d SKIP LOCKED
         ) c
       ), chosen AS (
         SELECT id FROM candidates ORDER BY slot, next_attempt_at LIMIT $1
       ), claimed AS (
         UPDATE deliveries d SET locked_until = now() + make_interval(secs => $3), updated_at = now()
         FROM chosen, endpoints e, events ev
         WHERE d.id = chosen.id AND e.id = d.endpoint_id AND ev.id = d.event_id
         RETURNING d.id, d.tenant_id, d.endpoint_id, d.event_id, d.attempt_count, d.retry_base, d.next_attempt_at,
                   e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, ev.payload::text AS body
       ), next AS (
         -- The statement sees the queue as it was before its update: the rows chosen are left out by name.
         SELECT (EXTRACT(EPOCH FROM min(n.at) - now()) * 1000)::float8 AS next_due_ms
         FROM queued q JOIN endpoints e ON e.id = q.endpoint_id AND e.enabled
         CROSS JOIN LATERAL (
           SELECT d.next_attempt_at AS at FROM deliveries d
           WHERE d.endpoint_id = q.endpoint_id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= now())
             AND NOT EXISTS (SELECT 1 FROM chosen c WHERE c.id = d.id)
           ORDER BY d.next_attempt_at LIMIT 1
         ) n
       )
       SELECT claimed.*, next.next_due_ms FROM next LEFT JOIN claimed ON true`,
      [limit, perEndpointCap, leaseSeconds],
    )) as (ClaimRow & { next_due_ms: number | null })[];
    return { claimed: rows.filter((row) => row.id !== null).map(toClaimed), nextDueInMs: rows[0]?.next_due_ms ?? null };
  }

  /**
   * Records one attempt and its outcome, releasing the lease. Returns false (and records nothing) when the
   * delivery moved on meanwhile: its lease ran out and another worker recorded the attempt, or the endpoint
   * was disabled by a 410 seen on another delivery. A 410, or a failure when the endpoint has failed without a
   * success for 5 days, disables the endpoint and tells the tenant's other endpoints.
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
          await this.disable(tx, tenantId, delivery.endpointId, 'gone');
          break;
        case 'pending':
        case 'dead': {
          // The start of a run of failures is kept until a success; checked on every failure, so an endpoint
          // that keeps failing is disabled on its first failed attempt past the limit.
          const [[row]] = (await tx.query(
            `UPDATE endpoints SET failing_since = coalesce(failing_since, now()) WHERE id = $1 AND tenant_id = $2
             RETURNING failing_since <= now() - make_interval(days => $3) AS expired`,
            [delivery.endpointId, tenantId, DISABLE_AFTER_FAILING_DAYS],
          )) as [{ expired: boolean }[], number];
          if (row?.expired) await this.disable(tx, tenantId, delivery.endpointId, 'failing_for_5_days');
          break;
        }
      }
      return true;
    });
  }

  /**
   * Records many successful attempts in one statement (the hot path: a healthy endpoint's 2xx), with the same
   * rules as recordAttempt: an attempt whose delivery moved on meanwhile is not recorded, and a success ends its
   * endpoint's run of failures. Returns the ids of the deliveries it recorded.
   */
  async recordSuccesses(successes: { delivery: ClaimedDelivery; attempt: AttemptRecord }[]): Promise<Set<string>> {
    if (successes.length === 0) return new Set();
    const column = <T>(pick: (s: { delivery: ClaimedDelivery; attempt: AttemptRecord }) => T) => successes.map(pick);
    const rows: { id: string }[] = await this.db.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[])
           AS i(id, tenant_id, attempt, attempted_at, status_code, duration_ms, response_excerpt)
       ), recorded AS (
         UPDATE deliveries d SET status = 'succeeded', attempt_count = i.attempt, next_attempt_at = NULL, last_status_code = i.status_code,
                locked_until = NULL, updated_at = now()
         FROM input i
         WHERE d.id = i.id AND d.tenant_id = i.tenant_id AND d.status = 'pending' AND d.attempt_count = i.attempt - 1
         RETURNING d.id, d.endpoint_id, d.tenant_id
       ), attempts AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error, response_excerpt)
         SELECT i.id, i.attempt, i.attempted_at, i.status_code, i.duration_ms, NULL, i.response_excerpt FROM input i JOIN recorded r ON r.id = i.id
       ), recovered AS (
         UPDATE endpoints e SET failing_since = NULL
         FROM (SELECT DISTINCT endpoint_id, tenant_id FROM recorded) r
         WHERE e.id = r.endpoint_id AND e.tenant_id = r.tenant_id AND e.failing_since IS NOT NULL
       )
       SELECT id FROM recorded`,
      [
        column((s) => s.delivery.id),
        column((s) => s.delivery.tenantId),
        column((s) => s.attempt.attempt),
        column((s) => s.attempt.attemptedAt),
        column((s) => s.attempt.statusCode),
        column((s) => s.attempt.durationMs),
        column((s) => s.attempt.responseExcerpt),
      ],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** One page of an endpoint's deliveries, newest first, optionally of one status, after a delivery id when given. */
  async listDeliveries(tenantId: string, endpointId: string, status: DeliveryStatus | null, limit: number, afterId: string | null): Promise<DeliveryRow[]> {
    return this.db.query(
      `SELECT d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempt_count, d.next_attempt_at, d.created_at, d.updated_at
       FROM deliveries d JOIN events ev ON ev.id = d.event_id
       WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND ($3::text IS NULL OR d.status = $3) AND ($4::text IS NULL OR d.id < $4)
       ORDER BY d.id DESC LIMIT $5`,
      [tenantId, endpointId, status, afterId, limit],
    );
  }

  /** One delivery of the tenant's endpoint with its event's exact body as sent; undefined when there is none. */
  async findDelivery(tenantId: string, endpointId: string, deliveryId: string): Promise<(DeliveryRow & { payload: string }) | undefined> {
    const rows: (DeliveryRow & { payload: string })[] = await this.db.query(
      `SELECT d.id, d.endpoint_id, d.event_id, ev.type AS event_type, d.status, d.attempt_count, d.next_attempt_at, d.created_at, d.updated_at,
              ev.payload::text AS payload
       FROM deliveries d JOIN events ev ON ev.id = d.event_id
       WHERE d.id = $1 AND d.tenant_id = $2 AND d.endpoint_id = $3`,
      [deliveryId, tenantId, endpointId],
    );
    return rows[0];
  }

  /** Every attempt of the given deliveries, in order. */
  async attemptsOf(tenantId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.db.query(
      `SELECT a.delivery_id, a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.error, a.response_excerpt
       FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
       WHERE d.tenant_id = $1 AND a.delivery_id = ANY($2::text[])
       ORDER BY a.delivery_id, a.attempt`,
      [tenantId, deliveryIds],
    );
  }

  /**
   * Makes a delivery due now with a fresh retry schedule, whatever its status (same event, so same webhook-id).
   * An attempt in flight still records its result; the retry then follows it. False when no such delivery.
   */
  async resend(tenantId: string, endpointId: string, deliveryId: string): Promise<boolean> {
    const [, updated] = (await this.db.query(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = now(), retry_base = attempt_count, updated_at = now()
       WHERE id = $1 AND endpoint_id = $2 AND tenant_id = $3`,
      [deliveryId, endpointId, tenantId],
    )) as [unknown, number];
    return updated > 0;
  }

  /**
   * Sends again every kept event of the tenant since `since` of a type the endpoint subscribes to: new deliveries
   * for events it never got, and its existing ones made due now with a fresh schedule. Returns how many.
   */
  async replay(tenantId: string, endpointId: string, since: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const events: { id: string; ordering_key: string | null }[] = await tx.query(
        `SELECT ev.id, ev.ordering_key FROM events ev JOIN endpoints e ON e.id = $2 AND e.tenant_id = $1
         WHERE ev.tenant_id = $1 AND ev.created_at >= $3 AND e.events @> jsonb_build_array(ev.type)
         ORDER BY ev.created_at, ev.id`,
        [tenantId, endpointId, since],
      );
      let total = 0;
      for (let i = 0; i < events.length; i += REPLAY_BATCH) {
        const batch = events.slice(i, i + REPLAY_BATCH);
        const rows: unknown[] = await tx.query(
          `INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, attempt_count, next_attempt_at, ordering_key)
           SELECT r.id, $1, r.event_id, $2, 'pending', 0, now(), r.ordering_key
           FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS r(id, event_id, ordering_key, n)
           ORDER BY r.n
           ON CONFLICT (endpoint_id, event_id) DO UPDATE
             SET status = 'pending', next_attempt_at = now(), retry_base = deliveries.attempt_count, updated_at = now()
           RETURNING id`,
          [endpointId, tenantId, batch.map(() => newId('dlv')), batch.map((e) => e.id), batch.map((e) => e.ordering_key)],
        );
        total += rows.length;
      }
      return total;
    });
  }

  /**
   * Stores an event (idempotent on its id) and a pending delivery for each enabled endpoint of the tenant subscribed
   * to its type, or for `onlyEndpointId` alone. Returns how many deliveries it created.
   */
  private async insertEvent(tx: Query, event: IncomingEvent, onlyEndpointId?: string): Promise<number> {
    const inserted: unknown[] = await tx.query(
      `INSERT INTO events (id, tenant_id, type, payload, occurred_at, ordering_key) VALUES ($1, $2, $3, $4::json, $5, $6)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [event.id, event.tenantId, event.type, event.body, event.occurredAt, event.orderingKey],
    );
    if (inserted.length === 0) return 0;
    const endpoints: { id: string }[] = onlyEndpointId
      ? await tx.query(`SELECT id FROM endpoints WHERE tenant_id = $1 AND id = $2`, [event.tenantId, onlyEndpointId])
      : await tx.query(`SELECT id FROM endpoints WHERE tenant_id = $1 AND enabled AND events @> jsonb_build_array($2::text) ORDER BY id`, [
          event.tenantId,
          event.type,
        ]);
    if (endpoints.length === 0) return 0;
    const created: unknown[] = await tx.query(
      `INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, attempt_count, next_attempt_at, ordering_key)
       SELECT d.id, d.endpoint_id, $1, $2, 'pending', 0, now(), $5 FROM unnest($3::text[], $4::text[]) AS d(id, endpoint_id)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
      [event.id, event.tenantId, endpoints.map(() => newId('dlv')), endpoints.map((e) => e.id), event.orderingKey],
    );
    return created.length;
  }

  /**
   * Disables an endpoint (once: a concurrent disable finds it disabled), gives up on its pending deliveries and
   * queues `webhook.endpoint_disabled` for the tenant's other enabled endpoints subscribed to it.
   */
  private async disable(tx: Query, tenantId: string, endpointId: string, reason: DisableReason): Promise<void> {
    const [rows] = (await tx.query(
      `UPDATE endpoints SET enabled = false, disabled_reason = $3, updated_at = now() WHERE id = $1 AND tenant_id = $2 AND enabled RETURNING url`,
      [endpointId, tenantId, DISABLE_REASON_TEXT[reason]],
    )) as [{ url: string }[], number];
    if (rows.length === 0) return;
    await tx.query(
      `UPDATE deliveries SET status = 'dead', next_attempt_at = NULL, locked_until = NULL, updated_at = now()
       WHERE endpoint_id = $1 AND tenant_id = $2 AND status = 'pending'`,
      [endpointId, tenantId],
    );
    const notice: WebhookEndpointDisabledData = {
      event: 'webhook.endpoint_disabled',
      tenant_id: tenantId,
      endpoint_id: endpointId,
      url: rows[0].url,
      reason,
      at: new Date().toISOString(),
    };
    await this.insertEvent(tx, { id: newId('evt'), tenantId, type: notice.event, body: JSON.stringify(notice), occurredAt: new Date(), orderingKey: null });
  }

  /** Gives claimed deliveries back at once (shutdown), instead of letting their leases run out. */
  async releaseLeases(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(`UPDATE deliveries SET locked_until = NULL WHERE id = ANY($1::text[]) AND status = 'pending'`, [ids]);
  }

  /**
   * Deletes the tenant's kept events whose body names one of `addresses` (a deleted contact's number or email), with
   * their deliveries and attempts (cascade); `contact.deleted` itself is kept.
   */
  async eraseEventsNaming(tenantId: string, addresses: string[]): Promise<void> {
    await this.db.query(
      `DELETE FROM events WHERE tenant_id = $1 AND type <> 'contact.deleted'
         AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS a WHERE strpos(payload::text, a) > 0)`,
      [tenantId, addresses],
    );
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
    retryBase: row.retry_base,
    dueAt: row.next_attempt_at,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    body: row.body,
  };
}
