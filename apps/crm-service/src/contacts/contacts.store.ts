import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AudienceCount, ContactFilters } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { CONTACT_COLUMNS, type ContactRow } from './contacts.mapper';

/** A contact's fields as the API writes them. */
export interface ContactFields {
  phone: string | null;
  email: string | null;
  name: string | null;
  company_id: string | null;
  tags: string[];
  attributes: Record<string, unknown>;
}

/** Who a campaign audience names: contacts by id, plus those with every tag and attribute (when any is given). */
export interface AudienceQuery {
  contactIds: string[];
  tags: string[];
  attributes: Record<string, unknown>;
}

const UNIQUE_VIOLATION = '23505';
/** A query close spellings are looked for: one word of letters, long enough for trigrams to tell words apart. */
const FUZZY_WORD = /^\p{L}{4,}$/u;

/** The number is another contact's (a unique violation of `(tenant_id, phone)`). */
export class PhoneTaken extends Error {
  constructor(readonly phone: string | null) {
    super(`the number ${phone} is another contact's`);
  }
}

/**
 * Tenants' contacts as the API reads and writes them; the tenant id is the first parameter of every method. Writes
 * run inside the caller's unit of work (`transaction`), which also queues their events (the outbox), and take its `tx`.
 */
@Injectable()
export class ContactsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** A new contact; null when its number is another contact's already. */
  async insert(tenantId: string, id: string, fields: ContactFields, tx: EntityManager): Promise<ContactRow | null> {
    const [created]: ContactRow[] = await tx.query(
      `INSERT INTO contacts (id, tenant_id, phone, email, name, company_id, tags, attributes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (tenant_id, phone) DO NOTHING
       RETURNING ${CONTACT_COLUMNS}`,
      [id, tenantId, fields.phone, fields.email, fields.name, fields.company_id, fields.tags, fields.attributes],
    );
    return created ?? null;
  }

  /**
   * Newest first, up to `limit` below `beforeId`, filtered. `q` is served by the trigram index on search_text: the text
   * anywhere in name, email or number ("5550123" finds "+14155550123"), or, for a single word, a close spelling of a
   * word in it ("alexandre" finds "Alexander").
   */
  list(tenantId: string, limit: number, beforeId: string | null, filters: ContactFilters): Promise<ContactRow[]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (beforeId !== null) where.push(`id < ${param(beforeId)}`);
    if (filters.tag !== undefined) where.push(`tags @> ARRAY[${param(filters.tag)}]::text[]`);
    if (filters.company_id !== undefined) where.push(`company_id = ${param(filters.company_id)}`);
    if (filters.opted_out !== undefined) where.push(`opted_out = ${param(filters.opted_out)}`);
    if (filters.q !== undefined && filters.q.trim() !== '') {
      const q = filters.q.trim().toLowerCase();
      const contains = `search_text LIKE ${param(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
      where.push(FUZZY_WORD.test(q) ? `(${contains} OR ${param(q)} OPERATOR(public.<%) search_text)` : contains);
    }
    return this.db.query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${param(limit)}`, params);
  }

  /** Oldest first, up to `limit` after `afterId` (null: from the first), those with `tag` when given: the export's pages. */
  exportPage(tenantId: string, limit: number, afterId: string | null, tag: string | null): Promise<ContactRow[]> {
    return this.db.query(
      `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE tenant_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR tags @> ARRAY[$3]::text[])
       ORDER BY id LIMIT $4`,
      [tenantId, afterId, tag, limit],
    );
  }

  /** Which contact each lead is linked to (leads not linked are left out). */
  leadLinks(tenantId: string, leadIds: string[]): Promise<{ lead_id: string; contact_id: string }[]> {
    return this.db.query(`SELECT lead_id, contact_id FROM contact_leads WHERE tenant_id = $1 AND lead_id = ANY($2)`, [tenantId, leadIds]);
  }

  /**
   * The contacts with a number an audience reaches now, counted without loading them (those opted out apart):
   * `tags @>` uses the GIN index, `attributes @>` is jsonb equality per key.
   */
  async audienceCount(tenantId: string, audience: AudienceQuery): Promise<AudienceCount> {
    const filtered = audience.tags.length > 0 || Object.keys(audience.attributes).length > 0;
    const [counted]: AudienceCount[] = await this.db.query(
      `SELECT count(*) FILTER (WHERE NOT opted_out)::int AS count, count(*) FILTER (WHERE opted_out)::int AS opted_out
       FROM contacts
       WHERE tenant_id = $1 AND phone IS NOT NULL
         AND (id = ANY($2::text[]) OR ($3::boolean AND tags @> $4::text[] AND attributes @> $5::jsonb))`,
      [tenantId, audience.contactIds, filtered, audience.tags, JSON.stringify(audience.attributes)],
    );
    return counted;
  }

  /** The contact, or null; `lock`: its row stays locked for the rest of `tx`. */
  async find(tenantId: string, id: string, { tx = this.db.manager, lock = false }: { tx?: EntityManager; lock?: boolean } = {}): Promise<ContactRow | null> {
    const [row]: ContactRow[] = await tx.query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [tenantId, id]);
    return row ?? null;
  }

  async phoneTaken(tenantId: string, phone: string, tx: EntityManager): Promise<boolean> {
    const [holder] = await tx.query(`SELECT 1 FROM contacts WHERE tenant_id = $1 AND phone = $2`, [tenantId, phone]);
    return Boolean(holder);
  }

  /** Writes the contact's fields whole; throws PhoneTaken when a concurrent writer took the number meanwhile. */
  async update(tenantId: string, id: string, fields: ContactFields, tx: EntityManager): Promise<ContactRow> {
    const [[updated]]: [ContactRow[]] = await tx
      .query(
        `UPDATE contacts SET phone = $3, email = $4, name = $5, company_id = $6, tags = $7, attributes = $8, updated_at = now()
         WHERE tenant_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
        [tenantId, id, fields.phone, fields.email, fields.name, fields.company_id, fields.tags, fields.attributes],
      )
      .catch((err: { code?: string }) => {
        throw err.code === UNIQUE_VIOLATION ? new PhoneTaken(fields.phone) : err;
      });
    return updated;
  }

  /** Deletes the contact and its timeline (entries of the contact or of any of `customers`); the deleted row, or null. */
  async deleteWithTimeline(tenantId: string, id: string, customers: (row: ContactRow) => string[], tx: EntityManager): Promise<ContactRow | null> {
    const [[deleted]]: [ContactRow[]] = await tx.query(`DELETE FROM contacts WHERE tenant_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`, [tenantId, id]);
    if (!deleted) return null;
    await tx.query(`DELETE FROM contact_activities WHERE tenant_id = $1 AND (contact_id = $2 OR customer = ANY($3::text[]))`, [tenantId, id, customers(deleted)]);
    return deleted;
  }

  /** Whether the tenant has the company, which then cannot be deleted until `tx` ends (`FOR KEY SHARE`). */
  async holdCompany(tenantId: string, companyId: string, tx: EntityManager): Promise<boolean> {
    const [found] = await tx.query(`SELECT 1 FROM companies WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE`, [tenantId, companyId]);
    return Boolean(found);
  }
}
