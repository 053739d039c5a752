import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { CheckoutSession } from './checkout-sessions.service';

/** An event claimed for one delivery attempt. */
export interface ClaimedStripeEvent {
  id: string;
  body: string;
  attempts: number;
  give_up_at: Date;
}

/** An event as the sandbox's test route lists it. */
export interface StripeEventRow {
  id: string;
  session_id: string;
  type: string;
  attempts: number;
  delivered: boolean;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
}

/** The sandbox's Stripe: Checkout Sessions (the session object whole, as Stripe answers it) and the events owed to the endpoint. */
@Injectable()
export class StripeStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insertSession(session: CheckoutSession): Promise<void> {
    await this.db.query(`INSERT INTO stripe_checkout_sessions (id, session) VALUES ($1, $2)`, [session.id, JSON.stringify(session)]);
  }

  /** The session, or null; `tx`: locked for the rest of it. */
  async session(id: string, tx?: EntityManager): Promise<CheckoutSession | null> {
    const [row] = (await (tx ?? this.db).query(`SELECT session FROM stripe_checkout_sessions WHERE id = $1${tx ? ' FOR UPDATE' : ''}`, [id])) as { session: CheckoutSession }[];
    return row?.session ?? null;
  }

  async saveSession(session: CheckoutSession, tx: EntityManager): Promise<void> {
    await tx.query(`UPDATE stripe_checkout_sessions SET session = $2 WHERE id = $1`, [session.id, JSON.stringify(session)]);
  }

  /** An event owed to the endpoint from now, given up after `giveUpMs`. */
  async insertEvent(event: { id: string; sessionId: string; type: string; body: string }, giveUpMs: number, tx: EntityManager): Promise<void> {
    await tx.query(`INSERT INTO stripe_events (id, session_id, type, body, due_at, give_up_at) VALUES ($1, $2, $3, $4, now(), now() + $5 * interval '1 millisecond')`, [
      event.id,
      event.sessionId,
      event.type,
      event.body,
      giveUpMs,
    ]);
  }

  /** The newest 100 events, of one session when given. */
  events(sessionId: string | null): Promise<StripeEventRow[]> {
    return this.db.query(
      `SELECT id, session_id, type, attempts, delivered_at IS NOT NULL AS delivered, last_status, last_error, created_at
         FROM stripe_events WHERE ($1::text IS NULL OR session_id = $1) ORDER BY created_at DESC LIMIT 100`,
      [sessionId],
    );
  }

  async eventBody(id: string): Promise<string | null> {
    const [row] = (await this.db.query(`SELECT body FROM stripe_events WHERE id = $1`, [id])) as { body: string }[];
    return row?.body ?? null;
  }

  /** Up to `limit` due events, each counted an attempt and not due again for `leaseMs` (SKIP LOCKED: instances never share one). */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedStripeEvent[]> {
    const [rows] = (await this.db.query(
      `UPDATE stripe_events SET due_at = now() + $2 * interval '1 millisecond', attempts = attempts + 1
        WHERE id IN (SELECT id FROM stripe_events WHERE due_at <= now() ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id, body, attempts, give_up_at`,
      [limit, leaseMs],
    )) as [ClaimedStripeEvent[], number];
    return rows;
  }

  async delivered(id: string, status: number): Promise<void> {
    await this.db.query(`UPDATE stripe_events SET due_at = NULL, delivered_at = now(), last_status = $2, last_error = NULL WHERE id = $1`, [id, status]);
  }

  /** A failed attempt: due again in `delayMs`, or never when given up. */
  async failed(id: string, outcome: { delayMs: number; givenUp: boolean; status: number | null; error: string }): Promise<void> {
    await this.db.query(
      `UPDATE stripe_events SET due_at = CASE WHEN $3 THEN NULL ELSE now() + $2 * interval '1 millisecond' END, last_status = $4, last_error = $5 WHERE id = $1`,
      [id, outcome.delayMs, outcome.givenUp, outcome.status, outcome.error],
    );
  }

  /** In how many milliseconds the next event is due (negative: late); null when none is owed. */
  async nextDueInMs(): Promise<number | null> {
    const [row] = (await this.db.query(`SELECT (EXTRACT(EPOCH FROM min(due_at) - now()) * 1000)::float8 AS ms FROM stripe_events WHERE due_at IS NOT NULL`)) as { ms: number | null }[];
    return row.ms;
  }
}
