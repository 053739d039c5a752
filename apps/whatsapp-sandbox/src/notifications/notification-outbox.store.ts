import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** A notification owed to the gateway, as recorded: the exact body and when it is due. */
export interface OutboxEntry {
  /** Notifications sharing a key go out one at a time, in the order recorded (a message's statuses: its wamid). */
  messageKey: string;
  /** The exact JSON bytes to sign and POST. */
  body: string;
  dueAt: Date;
  /** Not taken by then, it is dropped (logged). */
  giveUpAt: Date;
}

/** A notification claimed for one attempt. `attempts` counts this one and identifies the claim. */
export interface ClaimedNotification {
  id: string;
  messageKey: string;
  body: string;
  attempts: number;
  giveUpAt: Date;
}

/** What became of one claimed attempt. */
export type Settlement =
  | { id: string; attempts: number; outcome: 'delivered' | 'dropped' }
  | { id: string; attempts: number; outcome: 'retry'; delayMs: number; error: string };

/** A transaction's (or the data source's) query function. */
type Query = Pick<EntityManager, 'query'>;

interface ClaimRow {
  id: string;
  message_key: string;
  body: string;
  attempts: number;
  give_up_at: Date;
}

const toClaimed = (r: ClaimRow): ClaimedNotification => ({ id: String(r.id), messageKey: r.message_key, body: r.body, attempts: r.attempts, giveUpAt: r.give_up_at });

/**
 * SQL of the notification outbox. Rows are recorded in the transaction that stores what they are about, claimed
 * with a lease (`due_at` pushed past the attempt's time-out, so another instance or a successor takes them only if
 * this one died), and deleted once the gateway took them: the table holds only what is still owed.
 */
@Injectable()
export class NotificationOutbox {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One statement for any number of entries; `q` is the caller's transaction. Ids follow the entries' order. */
  async record(q: Query, entries: OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await q.query(
      `INSERT INTO notifications (message_key, body, due_at, give_up_at)
       SELECT e.message_key, e.body, e.due_at, e.give_up_at
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS e(message_key, body, due_at, give_up_at, n)
       ORDER BY e.n`,
      [entries.map((e) => e.messageKey), entries.map((e) => e.body), entries.map((e) => e.dueAt), entries.map((e) => e.giveUpAt)],
    );
  }

  /**
   * Records one entry already claimed for its first attempt (leased for `leaseMs`), so its recorder can deliver it at
   * once and still lose nothing if it dies meanwhile; null when an earlier notification of its key is still owed: it
   * then waits its turn, recorded as due, for the dispatcher. `q` is the caller's transaction.
   */
  async recordClaimed(q: Query, entry: OutboxEntry, leaseMs: number): Promise<ClaimedNotification | null> {
    const [row] = (await q.query(
      `INSERT INTO notifications (message_key, body, due_at, give_up_at, attempts)
       SELECT $1, $2, CASE WHEN h.held THEN $3 ELSE now() + $5 * interval '1 millisecond' END, $4, CASE WHEN h.held THEN 0 ELSE 1 END
       FROM (SELECT EXISTS (SELECT 1 FROM notifications WHERE message_key = $1) AS held) h
       RETURNING id, message_key, body, attempts, give_up_at`,
      [entry.messageKey, entry.body, entry.dueAt, entry.giveUpAt, leaseMs],
    )) as ClaimRow[];
    return row.attempts === 1 ? toClaimed(row) : null;
  }

  /**
   * Claims up to `limit` due notifications that are first in line for their key (an earlier one of the same key,
   * due or not, claimed or not, holds the later ones back), leasing them for `leaseMs`. SKIP LOCKED and the lease
   * keep two instances from taking the same row.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedNotification[]> {
    // TypeORM answers an UPDATE … RETURNING on PostgreSQL with [rows, affected count].
    const [rows] = (await this.db.query(
      `UPDATE notifications n
       SET due_at = now() + $2 * interval '1 millisecond', attempts = n.attempts + 1
       WHERE n.id IN (
         SELECT c.id FROM notifications c
         WHERE c.due_at <= now()
           AND NOT EXISTS (SELECT 1 FROM notifications e WHERE e.message_key = c.message_key AND e.id < c.id)
         ORDER BY c.due_at, c.id
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING n.id, n.message_key, n.body, n.attempts, n.give_up_at`,
      [limit, leaseMs],
    )) as [ClaimRow[], number];
    return rows.map(toClaimed);
  }

  /**
   * Applies the outcomes of many attempts at once. Each applies only while the claim is still the row's latest
   * (same `attempts`): an attempt that outlived its lease must not undo a successor's.
   */
  async settle(settlements: Settlement[]): Promise<void> {
    const finished = settlements.filter((s) => s.outcome !== 'retry');
    const retries = settlements.filter((s): s is Extract<Settlement, { outcome: 'retry' }> => s.outcome === 'retry');
    if (finished.length > 0) {
      await this.db.query(
        `DELETE FROM notifications n USING unnest($1::bigint[], $2::int[]) AS d(id, attempts)
         WHERE n.id = d.id AND n.attempts = d.attempts`,
        [finished.map((s) => s.id), finished.map((s) => s.attempts)],
      );
    }
    if (retries.length > 0) {
      await this.db.query(
        `UPDATE notifications n SET due_at = now() + r.delay_ms * interval '1 millisecond', last_error = r.error
         FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) AS r(id, attempts, delay_ms, error)
         WHERE n.id = r.id AND n.attempts = r.attempts`,
        [retries.map((s) => s.id), retries.map((s) => s.attempts), retries.map((s) => s.delayMs), retries.map((s) => s.error)],
      );
    }
  }

  /**
   * Milliseconds until the next notification first in line for its key comes due (a claimed one's lease counts as its
   * due time); negative when one is due now, null when nothing is owed.
   */
  async nextDueInMs(): Promise<number | null> {
    const [row] = (await this.db.query(
      `SELECT (EXTRACT(EPOCH FROM min(c.due_at) - now()) * 1000)::float8 AS ms FROM notifications c
       WHERE NOT EXISTS (SELECT 1 FROM notifications e WHERE e.message_key = c.message_key AND e.id < c.id)`,
    )) as { ms: number | null }[];
    return row.ms;
  }

  /** How many notifications are still owed (health of the outbox, and tests). */
  async pendingCount(): Promise<number> {
    const [row] = (await this.db.query(`SELECT count(*)::int AS n FROM notifications`)) as { n: number }[];
    return row.n;
  }
}
