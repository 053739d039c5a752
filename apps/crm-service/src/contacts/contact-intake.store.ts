import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CONTACT_COLUMNS, type ContactRow } from './contacts.mapper';

/** A contact as an upsert left it, and whether this statement created it (`xmax = 0`), so `contact.created` goes out once. */
export type UpsertedRow = ContactRow & { inserted: boolean };

/**
 * The writes that make and update contacts from other services' events: each an `INSERT … ON CONFLICT (tenant_id,
 * phone)`, so instances consuming at once, or a redelivered event, land on the one row of a number. Every method runs
 * inside the caller's unit of work (`transaction`), which also queues the contacts' events, and takes its `tx`.
 */
@Injectable()
export class ContactIntakeStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Contacts for numbers of any tenants, in one statement: made when new, named when they had no name yet. */
  upsertNumbers(contacts: { id: string; tenant_id: string; phone: string; name: string | null }[], tx: EntityManager): Promise<UpsertedRow[]> {
    return tx.query(
      `INSERT INTO contacts AS c (id, tenant_id, phone, name)
       SELECT id, tenant_id, phone, name FROM jsonb_to_recordset($1::jsonb) AS x(id text, tenant_id text, phone text, name text)
       ORDER BY tenant_id, phone
       ON CONFLICT (tenant_id, phone) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
         WHERE c.name IS NULL AND EXCLUDED.name IS NOT NULL
       RETURNING ${CONTACT_COLUMNS}, (xmax = 0) AS inserted`,
      [JSON.stringify(contacts)],
    );
  }

  /** A lead's number: its contact made, or given the lead's name and email; no row when nothing changed. */
  upsertLeadNumber(tenantId: string, id: string, phone: string, name: string | null, email: string | null, tx: EntityManager): Promise<UpsertedRow[]> {
    return tx.query(
      `INSERT INTO contacts AS c (id, tenant_id, phone, name, email) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, phone) DO UPDATE
         SET name = coalesce(EXCLUDED.name, c.name), email = coalesce(EXCLUDED.email, c.email), updated_at = now()
         WHERE (EXCLUDED.name IS NOT NULL AND EXCLUDED.name IS DISTINCT FROM c.name)
            OR (EXCLUDED.email IS NOT NULL AND EXCLUDED.email IS DISTINCT FROM c.email)
       RETURNING ${CONTACT_COLUMNS}, (xmax = 0) AS inserted`,
      [id, tenantId, phone, name, email],
    );
  }

  async idByPhone(tenantId: string, phone: string, tx: EntityManager): Promise<string> {
    const [row]: { id: string }[] = await tx.query(`SELECT id FROM contacts WHERE tenant_id = $1 AND phone = $2`, [tenantId, phone]);
    return row.id;
  }

  /** Links a lead to its contact, once. */
  async linkLead(tenantId: string, leadId: string, contactId: string, tx: EntityManager): Promise<void> {
    await tx.query(`INSERT INTO contact_leads (lead_id, tenant_id, contact_id) VALUES ($1, $2, $3) ON CONFLICT (lead_id) DO NOTHING`, [leadId, tenantId, contactId]);
  }

  /** The number's `opted_out` (its contact made if it has none), unless a change as new or newer was applied already. */
  applyOptChange(tenantId: string, id: string, phone: string, optedOut: boolean, at: string, tx: EntityManager): Promise<UpsertedRow[]> {
    return tx.query(
      `INSERT INTO contacts AS c (id, tenant_id, phone, opted_out, opted_out_changed_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, phone) DO UPDATE
         SET opted_out = EXCLUDED.opted_out, opted_out_changed_at = EXCLUDED.opted_out_changed_at, updated_at = now()
         WHERE c.opted_out_changed_at IS NULL OR c.opted_out_changed_at < EXCLUDED.opted_out_changed_at
       RETURNING ${CONTACT_COLUMNS}, (xmax = 0) AS inserted`,
      [id, tenantId, phone, optedOut, at],
    );
  }

  /** The tenant's first contact with this address in any case, locked for `tx`; null when none has it. */
  async firstByEmail(tenantId: string, email: string, tx: EntityManager): Promise<ContactRow | null> {
    const [row]: ContactRow[] = await tx.query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE tenant_id = $1 AND lower(email) = lower($2) ORDER BY id LIMIT 1 FOR UPDATE`, [
      tenantId,
      email,
    ]);
    return row ?? null;
  }

  /** A new contact known by its address only (email-only contacts are not unique). */
  async insertEmailContact(tenantId: string, id: string, name: string | null, email: string, tx: EntityManager): Promise<UpsertedRow> {
    const [row]: UpsertedRow[] = await tx.query(`INSERT INTO contacts (id, tenant_id, name, email) VALUES ($1, $2, $3, $4) RETURNING ${CONTACT_COLUMNS}, true AS inserted`, [
      id,
      tenantId,
      name,
      email,
    ]);
    return row;
  }

  async rename(tenantId: string, id: string, name: string, tx: EntityManager): Promise<ContactRow> {
    const [[updated]]: [ContactRow[]] = await tx.query(`UPDATE contacts SET name = $3, updated_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`, [
      tenantId,
      id,
      name,
    ]);
    return updated;
  }
}
