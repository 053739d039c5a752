import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AudienceCountBody,
  CreateContactBody,
  ProblemTypes,
  UpdateContactBody,
  hasPrefix,
  newId,
  notFoundProblem,
  problem,
  validationProblem,
  type AudienceCount,
  type ContactFilters,
  type ContactRecord,
  type Page,
} from '@parley/contracts';
import { ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { contactCustomers } from '../activities/activity-entries';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { contactCreated, contactDeleted, contactUpdated } from './contact-events';
import { CONTACT_COLUMNS, toContactRecord, type ContactRow } from './contacts.mapper';

const MAX_PAGE = 100;
const MAX_EXPORT_PAGE = 1000;
const UNIQUE_VIOLATION = '23505';
/** A query close spellings are looked for: one word of letters, long enough for trigrams to tell words apart. */
const FUZZY_WORD = /^\p{L}{4,}$/u;

const phoneTaken = (phone: string) =>
  new ProblemException(
    problem(409, ProblemTypes.conflict, 'Phone number taken', `Another contact of this tenant has the number ${phone}.`, [
      { field: 'phone', message: 'phone must not be the number of another contact' },
    ]),
  );

/** Tenants' contacts over the API (CONTRACT.md §14); every read and write is scoped by tenant. */
@Injectable()
export class ContactsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cursors: ListCursors,
    private readonly relay: OutboxRelay,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<ContactRecord> {
    const body = await validateDto(CreateContactBody, rawBody);
    const row = await this.write(async (tx) => {
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      const [created]: ContactRow[] = await tx.query(
        `INSERT INTO contacts (id, tenant_id, phone, email, name, company_id, tags, attributes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (tenant_id, phone) DO NOTHING
         RETURNING ${CONTACT_COLUMNS}`,
        [newId('ctc'), tenantId, body.phone ?? null, body.email ?? null, body.name ?? null, body.company_id ?? null, body.tags ?? [], body.attributes ?? {}],
      );
      if (!created) throw phoneTaken(body.phone!);
      await enqueueEvents(tx, [contactCreated(created)]);
      return created;
    });
    return toContactRecord(row);
  }

  async list(tenantId: string, limit: number, cursor: string | null, filters: ContactFilters): Promise<Page<ContactRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, 'contacts');
    const after = cursors.after(cursor);
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (after !== null) where.push(`id < ${param(after)}`);
    if (filters.tag !== undefined) where.push(`tags @> ARRAY[${param(filters.tag)}]::text[]`);
    if (filters.company_id !== undefined) where.push(`company_id = ${param(filters.company_id)}`);
    if (filters.opted_out !== undefined) where.push(`opted_out = ${param(filters.opted_out)}`);
    if (filters.q !== undefined && filters.q.trim() !== '') {
      const q = filters.q.trim().toLowerCase();
      // Served by the trigram index on search_text: the text anywhere in name, email or number ("5550123" finds
      // "+14155550123"), or, for a single word, a close spelling of a word in it ("alexandre" finds "Alexander").
      const contains = `search_text LIKE ${param(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
      where.push(FUZZY_WORD.test(q) ? `(${contains} OR ${param(q)} OPERATOR(public.<%) search_text)` : contains);
    }
    const rows: ContactRow[] = await this.db.query(
      `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${take + 1}`,
      params,
    );
    return { data: rows.slice(0, take).map(toContactRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  /** Which contact each lead is linked to (`lead.captured`); leads of another tenant or not linked are left out. */
  async contactsOfLeads(tenantId: string, leadIds: unknown): Promise<Record<string, string>> {
    const ids = Array.isArray(leadIds) ? leadIds.filter((id): id is string => typeof id === 'string').slice(0, MAX_PAGE) : [];
    if (ids.length === 0) return {};
    const links: { lead_id: string; contact_id: string }[] = await this.db.query(
      `SELECT lead_id, contact_id FROM contact_leads WHERE tenant_id = $1 AND lead_id = ANY($2)`,
      [tenantId, ids],
    );
    return Object.fromEntries(links.map((link) => [link.lead_id, link.contact_id]));
  }

  /** A page of every contact (with `tag`, when given), oldest first (up to 1000): the export's stream is made of these. */
  async exportPage(tenantId: string, limit: number, cursor: string | null, tag?: string): Promise<Page<ContactRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || MAX_EXPORT_PAGE), MAX_EXPORT_PAGE);
    const cursors = this.cursors.of(tenantId, 'contacts-export');
    const after = cursors.after(cursor);
    const rows: ContactRow[] = await this.db.query(
      `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE tenant_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::text IS NULL OR tags @> ARRAY[$3]::text[])
       ORDER BY id LIMIT ${take + 1}`,
      [tenantId, after, tag ?? null],
    );
    return { data: rows.slice(0, take).map(toContactRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  /**
   * The contacts a campaign audience reaches now, as campaign-service's AudienceResolver would find them (those named
   * by id, plus those with every tag and every attribute given; only those with a number), counted without loading
   * them: `tags @>` uses the GIN index, `attributes @>` is jsonb equality per key.
   */
  async audienceCount(tenantId: string, rawAudience: unknown): Promise<AudienceCount> {
    const { audience } = await validateDto(AudienceCountBody, { audience: rawAudience });
    const tags = audience.tags ?? [];
    const attributes = audience.attributes ?? {};
    const filtered = tags.length > 0 || Object.keys(attributes).length > 0;
    const [counted]: AudienceCount[] = await this.db.query(
      `SELECT count(*) FILTER (WHERE NOT opted_out)::int AS count, count(*) FILTER (WHERE opted_out)::int AS opted_out
       FROM contacts
       WHERE tenant_id = $1 AND phone IS NOT NULL
         AND (id = ANY($2::text[]) OR ($3::boolean AND tags @> $4::text[] AND attributes @> $5::jsonb))`,
      [tenantId, audience.contact_ids ?? [], filtered, tags, JSON.stringify(attributes)],
    );
    return counted;
  }

  async get(tenantId: string, id: string): Promise<ContactRecord> {
    return toContactRecord(await this.find(this.db.manager, tenantId, id));
  }

  /** PATCH semantics: only the fields given change; `tags` and `attributes` are replaced whole. */
  async update(tenantId: string, id: string, rawBody: unknown): Promise<ContactRecord> {
    const body = await validateDto(UpdateContactBody, rawBody);
    const row = await this.write(async (tx) => {
      const current = await this.find(tx, tenantId, id, true);
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      const next = {
        phone: body.phone === undefined ? current.phone : body.phone,
        email: body.email === undefined ? current.email : body.email,
        name: body.name === undefined ? current.name : body.name,
        company_id: body.company_id === undefined ? current.company_id : body.company_id,
        tags: body.tags ?? current.tags,
        attributes: body.attributes ?? current.attributes,
      };
      if (next.phone !== null && next.phone !== current.phone) {
        const [holder] = await tx.query(`SELECT 1 FROM contacts WHERE tenant_id = $1 AND phone = $2`, [tenantId, next.phone]);
        if (holder) throw phoneTaken(next.phone);
      }
      // the unique constraint still decides a race with a concurrent writer of that number
      const [updated]: ContactRow[] = await tx
        .query(
          `UPDATE contacts SET phone = $3, email = $4, name = $5, company_id = $6, tags = $7, attributes = $8, updated_at = now()
           WHERE tenant_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
          [tenantId, id, next.phone, next.email, next.name, next.company_id, next.tags, next.attributes],
        )
        .then(([rows]: [ContactRow[]]) => rows)
        .catch((err: { code?: string }) => {
          throw err.code === UNIQUE_VIOLATION ? phoneTaken(next.phone!) : err;
        });
      await enqueueEvents(tx, [contactUpdated(updated)]);
      return updated;
    });
    return toContactRecord(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.write(async (tx) => {
      const [[deleted]]: [ContactRow[]] = hasPrefix(id, 'ctc')
        ? await tx.query(`DELETE FROM contacts WHERE tenant_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`, [tenantId, id])
        : [[]];
      if (!deleted) throw new ProblemException(notFoundProblem(`Contact "${id}"`));
      // its timeline goes with it: the messages' text and the notes are its personal data too
      await tx.query(`DELETE FROM contact_activities WHERE tenant_id = $1 AND (contact_id = $2 OR customer = ANY($3::text[]))`, [tenantId, id, contactCustomers(deleted)]);
      // (an import's file, which may name the number, is deleted when its job ends: ContactImportWorker)
      await enqueueEvents(tx, [contactDeleted(deleted)]);
    });
  }

  /** Runs a write and its events in one transaction, then wakes the relay to publish them. */
  private async write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.relay.wake();
    return result;
  }

  private async find(manager: EntityManager, tenantId: string, id: string, forUpdate = false): Promise<ContactRow> {
    const [row]: ContactRow[] = hasPrefix(id, 'ctc')
      ? await manager.query(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE tenant_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [tenantId, id])
      : [];
    if (!row) throw new ProblemException(notFoundProblem(`Contact "${id}"`));
    return row;
  }

  /** Another tenant's company is no company at all here (400 naming the field, like a missing one). */
  private async assertCompany(manager: EntityManager, tenantId: string, companyId: string): Promise<void> {
    const [found] = await manager.query(`SELECT 1 FROM companies WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE`, [tenantId, companyId]);
    if (!found) throw new ProblemException(validationProblem([{ field: 'company_id', message: `company_id names no company of this tenant (${companyId})` }]));
  }
}
