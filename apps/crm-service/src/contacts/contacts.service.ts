import { Injectable } from '@nestjs/common';
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
import type { EntityManager } from 'typeorm';
import { contactCustomers } from '../activities/activity-entries';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { contactCreated, contactDeleted, contactUpdated } from './contact-events';
import { toContactRecord, type ContactRow } from './contacts.mapper';
import { ContactsStore, PhoneTaken } from './contacts.store';

const MAX_PAGE = 100;
const MAX_EXPORT_PAGE = 1000;

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
    private readonly contacts: ContactsStore,
    private readonly cursors: ListCursors,
    private readonly relay: OutboxRelay,
  ) {}

  async create(tenantId: string, rawBody: unknown): Promise<ContactRecord> {
    const body = await validateDto(CreateContactBody, rawBody);
    const row = await this.write(async (tx) => {
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      const created = await this.contacts.insert(
        tenantId,
        newId('ctc'),
        { phone: body.phone ?? null, email: body.email ?? null, name: body.name ?? null, company_id: body.company_id ?? null, tags: body.tags ?? [], attributes: body.attributes ?? {} },
        tx,
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
    const rows = await this.contacts.list(tenantId, take + 1, cursors.after(cursor), filters);
    return { data: rows.slice(0, take).map(toContactRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  /** Which contact each lead is linked to (`lead.captured`); leads of another tenant or not linked are left out. */
  async contactsOfLeads(tenantId: string, leadIds: unknown): Promise<Record<string, string>> {
    const ids = Array.isArray(leadIds) ? leadIds.filter((id): id is string => typeof id === 'string').slice(0, MAX_PAGE) : [];
    if (ids.length === 0) return {};
    const links = await this.contacts.leadLinks(tenantId, ids);
    return Object.fromEntries(links.map((link) => [link.lead_id, link.contact_id]));
  }

  /** A page of every contact (with `tag`, when given), oldest first (up to 1000): the export's stream is made of these. */
  async exportPage(tenantId: string, limit: number, cursor: string | null, tag?: string): Promise<Page<ContactRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || MAX_EXPORT_PAGE), MAX_EXPORT_PAGE);
    const cursors = this.cursors.of(tenantId, 'contacts-export');
    const rows = await this.contacts.exportPage(tenantId, take + 1, cursors.after(cursor), tag ?? null);
    return { data: rows.slice(0, take).map(toContactRecord), next_cursor: cursors.next(rows, take, (row) => row.id) };
  }

  /**
   * The contacts a campaign audience reaches now, as campaign-service's AudienceResolver would find them (those named
   * by id, plus those with every tag and every attribute given; only those with a number), counted without loading
   * them: `tags @>` uses the GIN index, `attributes @>` is jsonb equality per key.
   */
  async audienceCount(tenantId: string, rawAudience: unknown): Promise<AudienceCount> {
    const { audience } = await validateDto(AudienceCountBody, { audience: rawAudience });
    return this.contacts.audienceCount(tenantId, { contactIds: audience.contact_ids ?? [], tags: audience.tags ?? [], attributes: audience.attributes ?? {} });
  }

  async get(tenantId: string, id: string): Promise<ContactRecord> {
    return toContactRecord(await this.find(tenantId, id));
  }

  /** PATCH semantics: only the fields given change; `tags` and `attributes` are replaced whole. */
  async update(tenantId: string, id: string, rawBody: unknown): Promise<ContactRecord> {
    const body = await validateDto(UpdateContactBody, rawBody);
    const row = await this.write(async (tx) => {
      const current = await this.find(tenantId, id, tx);
      if (body.company_id) await this.assertCompany(tx, tenantId, body.company_id);
      const next = {
        phone: body.phone === undefined ? current.phone : body.phone,
        email: body.email === undefined ? current.email : body.email,
        name: body.name === undefined ? current.name : body.name,
        company_id: body.company_id === undefined ? current.company_id : body.company_id,
        tags: body.tags ?? current.tags,
        attributes: body.attributes ?? current.attributes,
      };
      if (next.phone !== null && next.phone !== current.phone && (await this.contacts.phoneTaken(tenantId, next.phone, tx))) throw phoneTaken(next.phone);
      // the unique constraint still decides a race with a concurrent writer of that number
      const updated = await this.contacts.update(tenantId, id, next, tx).catch((err: unknown) => {
        throw err instanceof PhoneTaken ? phoneTaken(next.phone!) : err;
      });
      await enqueueEvents(tx, [contactUpdated(updated)]);
      return updated;
    });
    return toContactRecord(row);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.write(async (tx) => {
      // its timeline goes with it: the messages' text and the notes are its personal data too
      const deleted = hasPrefix(id, 'ctc') ? await this.contacts.deleteWithTimeline(tenantId, id, contactCustomers, tx) : null;
      if (!deleted) throw new ProblemException(notFoundProblem(`Contact "${id}"`));
      // (an import's file, which may name the number, is deleted when its job ends: ContactImportWorker)
      await enqueueEvents(tx, [contactDeleted(deleted)]);
    });
  }

  /** Runs a write and its events in one transaction, then wakes the relay to publish them. */
  private async write<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.contacts.transaction(work);
    this.relay.wake();
    return result;
  }

  /** The contact, or a 404; inside `tx` its row stays locked for the rest of the transaction. */
  private async find(tenantId: string, id: string, tx?: EntityManager): Promise<ContactRow> {
    const row = hasPrefix(id, 'ctc') ? await this.contacts.find(tenantId, id, tx ? { tx, lock: true } : {}) : null;
    if (!row) throw new ProblemException(notFoundProblem(`Contact "${id}"`));
    return row;
  }

  /** Another tenant's company is no company at all here (400 naming the field, like a missing one). */
  private async assertCompany(tx: EntityManager, tenantId: string, companyId: string): Promise<void> {
    if (!(await this.contacts.holdCompany(tenantId, companyId, tx))) {
      throw new ProblemException(validationProblem([{ field: 'company_id', message: `company_id names no company of this tenant (${companyId})` }]));
    }
  }
}
