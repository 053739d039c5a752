import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** What the platform mails (issue 32); receipts and the like join later. */
export type MailKind = 'invitation' | 'password_reset';

/** A mail to queue: its content already encrypted (PlatformMail does that). */
export interface QueuedMail {
  kind: MailKind;
  /** The member the mail is about, when it is about one: withdrawing them takes the unsent mail with them. */
  memberId: string | null;
  recipient: string;
  /** `{subject, text, html}` as JSON, encrypted. */
  content: string;
  /** Not taken by then (its link has expired), it is dropped. */
  giveUpAt: Date;
}

/** A mail claimed for one attempt. `attempts` counts this one and identifies the claim. */
export interface ClaimedMail {
  id: string;
  tenantId: string;
  kind: MailKind;
  recipient: string;
  content: string;
  attempts: number;
  giveUpAt: Date;
}

/** What became of one claimed attempt. */
export type MailSettlement =
  | { id: string; attempts: number; outcome: 'sent' | 'dropped' }
  | { id: string; attempts: number; outcome: 'retry'; delayMs: number; error: string };

/** A transaction's (or the data source's) query function. */
type Query = Pick<EntityManager, 'query'>;

interface ClaimRow {
  id: string;
  tenant_id: string;
  kind: MailKind;
  recipient: string;
  content: string;
  attempts: number;
  give_up_at: Date;
}

/**
 * SQL of the platform's mail outbox (`outgoing_mail`). A mail is queued in the transaction that decided it (the
 * invitation, the reset link), claimed with a lease (`due_at` pushed past the attempt's time-out, so another instance
 * or a successor takes it only if this one died), and deleted once the SMTP server took it: the table holds only what
 * is still owed.
 */
@Injectable()
export class OutgoingMailStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Queues a mail in the caller's transaction, due at once. */
  async queue(q: Query, tenantId: string, mail: QueuedMail): Promise<void> {
    await q.query(`INSERT INTO outgoing_mail (tenant_id, member_id, kind, recipient, content, give_up_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
      tenantId,
      mail.memberId,
      mail.kind,
      mail.recipient,
      mail.content,
      mail.giveUpAt,
    ]);
  }

  /** Claims up to `limit` due mails, oldest first, leasing them for `leaseMs`; SKIP LOCKED keeps two instances apart. */
  async claim(limit: number, leaseMs: number): Promise<ClaimedMail[]> {
    // TypeORM answers an UPDATE … RETURNING on PostgreSQL with [rows, affected count].
    const [rows] = (await this.db.query(
      `UPDATE outgoing_mail m
          SET due_at = now() + $2 * interval '1 millisecond', attempts = m.attempts + 1
        WHERE m.id IN (SELECT id FROM outgoing_mail WHERE due_at <= now() ORDER BY due_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.tenant_id, m.kind, m.recipient, m.content, m.attempts, m.give_up_at`,
      [limit, leaseMs],
    )) as [ClaimRow[], number];
    return rows.map((r) => ({ id: String(r.id), tenantId: r.tenant_id, kind: r.kind, recipient: r.recipient, content: r.content, attempts: r.attempts, giveUpAt: r.give_up_at }));
  }

  /**
   * Records what became of attempts. Each applies only while its claim is still the row's latest (same `attempts`): an
   * attempt that outlived its lease must not undo a successor's.
   */
  async settle(settlements: MailSettlement[]): Promise<void> {
    const finished = settlements.filter((s) => s.outcome !== 'retry');
    const retries = settlements.filter((s): s is Extract<MailSettlement, { outcome: 'retry' }> => s.outcome === 'retry');
    if (finished.length > 0) {
      await this.db.query(`DELETE FROM outgoing_mail m USING unnest($1::bigint[], $2::int[]) AS d(id, attempts) WHERE m.id = d.id AND m.attempts = d.attempts`, [
        finished.map((s) => s.id),
        finished.map((s) => s.attempts),
      ]);
    }
    if (retries.length > 0) {
      await this.db.query(
        `UPDATE outgoing_mail m SET due_at = now() + r.delay_ms * interval '1 millisecond', last_error = r.error
           FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) AS r(id, attempts, delay_ms, error)
          WHERE m.id = r.id AND m.attempts = r.attempts`,
        [retries.map((s) => s.id), retries.map((s) => s.attempts), retries.map((s) => s.delayMs), retries.map((s) => s.error)],
      );
    }
  }

  /** Milliseconds until the next mail comes due (a claimed one's lease counts); negative when one is due, null when none is owed. */
  async nextDueInMs(): Promise<number | null> {
    const [row] = (await this.db.query(`SELECT (EXTRACT(EPOCH FROM min(due_at) - now()) * 1000)::float8 AS ms FROM outgoing_mail`)) as { ms: number | null }[];
    return row.ms;
  }

  /** The mail a tenant is still owed, oldest first, without its content (operators and tests). */
  async owed(tenantId: string): Promise<{ kind: MailKind; recipient: string; attempts: number; lastError: string | null }[]> {
    const rows = (await this.db.query(`SELECT kind, recipient, attempts, last_error FROM outgoing_mail WHERE tenant_id = $1 ORDER BY id`, [tenantId])) as {
      kind: MailKind;
      recipient: string;
      attempts: number;
      last_error: string | null;
    }[];
    return rows.map((r) => ({ kind: r.kind, recipient: r.recipient, attempts: r.attempts, lastError: r.last_error }));
  }
}
