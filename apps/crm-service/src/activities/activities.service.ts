import { Injectable } from '@nestjs/common';
import { CreateContactActivityBody, hasPrefix, newId, notFoundProblem, type ContactActivityRecord, type Page } from '@parley/contracts';
import { GroupCommit, ListCursors, ProblemException, validateDto } from '@parley/service-kit';
import type { EntityManager } from 'typeorm';
import { ActivitiesStore, type ActivityRow, type TenantEntry } from './activities.store';
import { contactCustomers, type ActivityEntry } from './activity-entries';

export type { TenantEntry } from './activities.store';

const MAX_PAGE = 100;

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
    private readonly activities: ActivitiesStore,
    private readonly cursors: ListCursors,
  ) {}

  /**
   * A deleted contact's entries that happened by `until` (its deletion), erased again: those of events already on their
   * way landed after the deletion had erased the rest.
   */
  async eraseLateEntries(tenantId: string, contact: { contact_id: string; phone: string | null; email: string | null }, until: Date): Promise<void> {
    await this.activities.eraseLateEntries(tenantId, contact.contact_id, contactCustomers(contact), until);
  }

  /** `record` for many entries, in one statement with those of other consumed groups: a busy topic costs one per batch. */
  async recordMany(entries: readonly TenantEntry[]): Promise<void> {
    if (entries.length > 0) await this.batches.add(entries);
  }

  /**
   * Inserts entries in one statement, each once (the same `source` again changes nothing), in the caller's transaction
   * when given its manager.
   */
  async insertMany(entries: readonly TenantEntry[], tx?: EntityManager): Promise<void> {
    if (entries.length === 0) return;
    await this.activities.insertMany(
      entries,
      entries.map(() => newId('act')),
      tx,
    );
  }

  /** Records an entry once: the same `source` again (a redelivered event) changes nothing. */
  async record(tenantId: string, entry: ActivityEntry, tx?: EntityManager): Promise<void> {
    await this.activities.insert(tenantId, newId('act'), entry, tx);
  }

  /** The contact's entries and its number's or email address's (its messages), newest first; another tenant's contact is a 404. */
  async list(tenantId: string, contactId: string, limit: number, cursor: string | null): Promise<Page<ContactActivityRecord>> {
    const take = Math.min(Math.max(1, Math.trunc(limit) || 50), MAX_PAGE);
    const cursors = this.cursors.of(tenantId, `contacts/${contactId}/activities`);
    const after = cursors.after(cursor);
    const contact = await this.contact(tenantId, contactId);
    const [at, id] = after ? after.split('|') : [];
    const rows = await this.activities.timeline(tenantId, contact.id, contactCustomers(contact), after ? { at, id } : null, take + 1);
    return { data: rows.slice(0, take).map(toRecord), next_cursor: cursors.next(rows, take, positionOf) };
  }

  /** A note, call or task added by hand (`POST /api/v1/contacts/{id}/activities`). */
  async add(tenantId: string, contactId: string, rawBody: unknown): Promise<ContactActivityRecord> {
    const body = await validateDto(CreateContactActivityBody, rawBody);
    const contact = await this.contact(tenantId, contactId);
    return toRecord(await this.activities.insertManual(tenantId, { id: newId('act'), contactId: contact.id, type: body.type, text: body.text, dueAt: body.due_at ?? null }));
  }

  /** The contact a lead is linked to (`contact_leads`), once intake has linked it. */
  async contactOfLead(tenantId: string, leadId: string): Promise<string | null> {
    return this.activities.leadContact(tenantId, leadId);
  }

  private async contact(tenantId: string, id: string): Promise<{ id: string; phone: string | null; email: string | null }> {
    const row = hasPrefix(id, 'ctc') ? await this.activities.contact(tenantId, id) : null;
    if (!row) throw new ProblemException(notFoundProblem(`Contact "${id}"`));
    return row;
  }
}
