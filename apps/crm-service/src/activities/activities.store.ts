import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactActivityRecord } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { ActivityEntry } from './activity-entries';

/** An entry of a tenant's timeline to record. */
export interface TenantEntry {
  tenantId: string;
  entry: ActivityEntry;
}

/** A timeline entry as read. */
export interface ActivityRow {
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

const ACTIVITY_COLUMNS = 'id, type, occurred_at, channel, direction, text, ref_kind, ref_id, due_at';

/**
 * Contacts' timelines as stored. An entry recorded from an event is written once per `source` (a redelivered event
 * changes nothing). Writes that are part of the caller's transaction take its `tx`.
 */
@Injectable()
export class ActivitiesStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Erases, again, a deleted contact's entries that happened by `until` (the deletion): those recorded after the
   * deletion had erased the rest, from events already on their way. A new contact's later entries stay.
   */
  async eraseLateEntries(tenantId: string, contactId: string, customers: readonly string[], until: Date): Promise<void> {
    await this.db.query(`DELETE FROM contact_activities WHERE tenant_id = $1 AND (contact_id = $2 OR customer = ANY($3::text[])) AND occurred_at <= $4`, [
      tenantId,
      contactId,
      customers,
      until,
    ]);
  }

  /** Entries of any tenants, in one statement, each with its new id (`ids[i]` for `entries[i]`). */
  async insertMany(entries: readonly TenantEntry[], ids: readonly string[], tx: EntityManager = this.db.manager): Promise<void> {
    const rows = entries.map(({ tenantId, entry }, n) => ({
      n,
      id: ids[n],
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
    await tx.query(
      `INSERT INTO contact_activities (id, tenant_id, contact_id, customer, type, direction, channel, text, ref_kind, ref_id, due_at, source, occurred_at)
       SELECT id, tenant_id, contact_id, customer, type, direction, channel, text, ref_kind, ref_id, due_at, source, occurred_at
       FROM jsonb_to_recordset($1::jsonb) AS x(n int, id text, tenant_id text, contact_id text, customer text, type text, direction text, channel text, text text,
         ref_kind text, ref_id text, due_at timestamptz, source text, occurred_at timestamptz)
       ORDER BY n
       ON CONFLICT (tenant_id, source) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  async insert(tenantId: string, id: string, entry: ActivityEntry, tx: EntityManager = this.db.manager): Promise<void> {
    await tx.query(
      `INSERT INTO contact_activities (id, tenant_id, contact_id, customer, type, direction, channel, text, ref_kind, ref_id, due_at, source, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (tenant_id, source) DO NOTHING`,
      [id, tenantId, entry.contactId, entry.customer, entry.type, entry.direction, entry.channel, entry.text, entry.ref?.kind ?? null, entry.ref?.id ?? null, entry.dueAt, entry.source, entry.occurredAt],
    );
  }

  /**
   * The entries of the contact and of its `customers` (its number, its address: its messages), newest first: up to
   * `limit` before the position `before` (null: from the newest).
   */
  timeline(tenantId: string, contactId: string, customers: string[], before: { at: string; id: string } | null, limit: number): Promise<ActivityRow[]> {
    return this.db.query(
      `SELECT ${ACTIVITY_COLUMNS} FROM contact_activities
       WHERE tenant_id = $1 AND (contact_id = $2 OR customer = ANY($3::text[]))
         AND ($4::timestamptz IS NULL OR (occurred_at, id) < ($4::timestamptz, $5::text))
       ORDER BY occurred_at DESC, id DESC LIMIT $6`,
      [tenantId, contactId, customers, before?.at ?? null, before?.id ?? null, limit],
    );
  }

  /** A note, call or task added by hand, happening now. */
  async insertManual(tenantId: string, entry: { id: string; contactId: string; type: string; text: string; dueAt: string | null }): Promise<ActivityRow> {
    const [row]: ActivityRow[] = await this.db.query(
      `INSERT INTO contact_activities (id, tenant_id, contact_id, type, text, due_at, occurred_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${ACTIVITY_COLUMNS}`,
      [entry.id, tenantId, entry.contactId, entry.type, entry.text, entry.dueAt, new Date().toISOString()],
    );
    return row;
  }

  /** The contact a lead is linked to (`contact_leads`), once intake has linked it. */
  async leadContact(tenantId: string, leadId: string): Promise<string | null> {
    const [link]: { contact_id: string }[] = await this.db.query(`SELECT contact_id FROM contact_leads WHERE tenant_id = $1 AND lead_id = $2`, [tenantId, leadId]);
    return link?.contact_id ?? null;
  }

  /** The contact's id, number and address, or null. */
  async contact(tenantId: string, id: string): Promise<{ id: string; phone: string | null; email: string | null } | null> {
    const [row] = await this.db.query(`SELECT id, phone, email FROM contacts WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }
}
