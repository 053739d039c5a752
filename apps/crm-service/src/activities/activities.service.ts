import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CreateContactActivityBody, hasPrefix, newId, notFoundProblem, type ContactActivityRecord, type Page } from '@parley/contracts';
import { GroupCommit, ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import type { DataSource, EntityManager } from 'typeorm';
import { contactCustomers, type ActivityEntry } from './activity-entries';

const MAX_PAGE = 100;

/** An entry of a tenant's timeline to record. */
export interface TenantEntry {
  tenantId: string;
  entry: ActivityEntry;
}

interface ActivityRow {
  id: string;
  type: ContactActivityRecord['type'];
  occurred_at: Date;
  channel: string | null;
  direction: 'in' | 'out' | null;
  text: string | null;
  ref_kind: NonNullable<ContactActivityRecord['ref']>['kind'] | null;
  ref_id: string | null;
  due_at: Date | null;
}

const toRecord = (row: ActivityRow): ContactActivityRecord => ({
  id: row.id,
  type: row.type,
  occurred_at: row.occurred_at.toISOString(),
  channel: row.channel,
  direction: row.direction,
  text: row.text,
  ref: row.ref_kind && row.ref_id ? { kind: row.ref_kind, id: row.ref_id } : null,
  due_at: row.due_at?.toISOString() ?? null,
});

/** Position of an entry in the newest-first timeline: its time, then its id (entries of the same millisecond). */
const positionOf = (row: ActivityRow) => `${row.occurred_at.toISOString()}|${row.id}`;

/** Contacts' timelines (CONTRACT.md §14): entries recorded from events, and notes, calls and tasks added by hand. */
@Injectable()
export class ActivitiesService {
  /** Entries of the key groups consumed side by side share one insert (group commit). */
  private readonly batches = new GroupCommit<readonly TenantEntry[], void>(async (groups) => {
    await this.insertMany(groups.flat());
    return groups.map(() => undefined);
  });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
  ) {}

  /** `record` for many entries, in one statement with those of other consumed groups: a busy topic costs one per batch. */
  async recordMany(entries: readonly TenantEntry[]): Promise<void> {
    if (entries.length > 0) await this.batches.add(entries);
  }

  /**
   * Inserts entries in one statement, each once (the same `source` again changes nothing), in the caller's transaction
   * when given its manager.
   */
  async insertMany(entries: readonly TenantEntry[], manager: EntityManager = this.db.manager): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(({ tenantId, entry }, n) => ({
      n,
      id: newId('act'),
      tenant_id: tenantId,
      contact_id: entry.contactId,
      customer: entry.customer,
      type: entry.type,
      direction: entry.direction,
      channel: entry.channel,
      text: entry.text,
      ref_kind: entry.ref?.kind ?? null,
      ref_id: entry.ref?.id ?? null,
      due_at: entry.dueAt,
      source: entry.source,
      occurred_at: entry.occurredAt,
    }));
    await manager.query(
      `INSERT INTO contact_activities (id, tenant_id, contact_id, customer, type, direction, channel, text, ref_kind, ref_id, due_at, source, occurred_at)
       SELECT id, tenant_id, contact_id, customer, type, direction, channel, text, ref_kind, ref_id, due_at, source, occurred_at
       FROM jsonb_to_recordset($1::jsonb) AS x(n int, id text, tenant_id text, contact_id text, customer text, type text, direction text, channel text, text text,
         ref_kind text, ref_id text, due_at timestamptz, source text, occurred_at timestamptz)
       ORDER BY n
       ON CONFLICT (tenant_id, source) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  /** Records an entry once: the same `source` again (a redelivered event) changes nothing. */
  async record(tenantId: string, entry: ActivityEntry, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(
      `INSERT INTO contact_activities (id, tenant_id, contact_id, customer, type, direction, channel, text, ref_kind, ref_id, due_at, source, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (tenant_id, source) DO NOTHING`,
      [newId('act'), tenantId, entry.contactId, entry.customer, entry.type, entry.direction, entry.channel, entry.text, entry.ref?.kind ?? null, entry.ref?.id ?? null, entry.dueAt, entry.source, entry.occurredAt],
    );
  }

  /** The contact's entries and its number's or email address's (its messages), newest first; another tenant's contact is a 404. */
  async list(tenantId: string, contactId: string, limit: number, cursor: string | null): Promise<Page<ContactActivityRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, `contacts/${contactId}/activities`);
    const after = cursors.after(cursor);
    const contact = await this.contact(tenantId, contactId);
    const [afterTime, afterId] = after ? after.split('|') : [null, null];
    const rows: ActivityRow[] = await this.db.query(
      `SELECT id, type, occurred_at, channel, direction, text, ref_kind, ref_id, due_at FROM contact_activities
       WHERE tenant_id = $1 AND (contact_id = $2 OR customer = ANY($3::text[]))
         AND ($4::timestamptz IS NULL OR (occurred_at, id) < ($4::timestamptz, $5::text))
       ORDER BY occurred_at DESC, id DESC LIMIT ${take + 1}`,
      [tenantId, contact.id, contactCustomers(contact), afterTime, afterId],
    );
    return { data: rows.slice(0, take).map(toRecord), next_cursor: cursors.next(rows, take, positionOf) };
  }

  /** A note, call or task added by hand (`POST /api/v1/contacts/{id}/activities`). */
  async add(tenantId: string, contactId: string, rawBody: unknown): Promise<ContactActivityRecord> {
    const body = await validateDto(CreateContactActivityBody, rawBody);
    const contact = await this.contact(tenantId, contactId);
    const [row]: ActivityRow[] = await this.db.query(
      `INSERT INTO contact_activities (id, tenant_id, contact_id, type, text, due_at, occurred_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id, type, occurred_at, channel, direction, text, ref_kind, ref_id, due_at`,
      [newId('act'), tenantId, contact.id, body.type, body.text, body.due_at ?? null, new Date().toISOString()],
    );
    return toRecord(row);
  }

  /** The contact a lead is linked to (`contact_leads`), once intake has linked it. */
  async contactOfLead(tenantId: string, leadId: string): Promise<string | null> {
    const [link] = await this.db.query(`SELECT contact_id FROM contact_leads WHERE tenant_id = $1 AND lead_id = $2`, [tenantId, leadId]);
    return link?.contact_id ?? null;
  }

  private async contact(tenantId: string, id: string): Promise<{ id: string; phone: string | null; email: string | null }> {
    const [row] = hasPrefix(id, 'ctc') ? await this.db.query(`SELECT id, phone, email FROM contacts WHERE tenant_id = $1 AND id = $2`, [tenantId, id]) : [];
    if (!row) throw new ProblemException(notFoundProblem(`Contact "${id}"`));
    return row;
  }
}
