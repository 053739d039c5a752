import { Injectable, Logger } from '@nestjs/common';
import { newId } from '@parley/contracts';
import { BackgroundWorker, WorkerLoop } from '@parley/service-kit';
import { parse } from 'csv-parse';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EntityManager } from 'typeorm';
import { contactCreated, contactUpdated } from '../contacts/contact-events';
import type { ContactRow } from '../contacts/contacts.mapper';
import { enqueueEvents } from '../outbox/outbox';
import { OutboxRelay } from '../outbox/outbox-relay';
import { ContactImportsStore, type ClaimedJob } from './contact-imports.store';
import { MAX_REPORTED_FAILURES } from './import-limits';
import { importColumns, readImportRow, type ImportRow } from './import-rows';

const BATCH_ROWS = 1000;
const LEASE_SECONDS = 60;
/** Pages of the file (`contact_import_chunks`, 64 KiB each) read per query while parsing. */
const PAGES_PER_READ = 4;
/**
 * Looking for jobs nobody wakes this worker for: another instance's whose lease ran out (its own are woken at once).
 * Rare, so rarely: an idle service costs next to nothing.
 */
const SWEEP_MS = 15_000;

interface Batch {
  rows: ImportRow[];
  failures: { row: number; error: string }[];
  /** The data row after the last one read into this batch: where the job resumes once it is committed. */
  nextRow: number;
}

/**
 * Works the queued imports, one at a time per instance: claims a job with a lease, stream-parses its CSV (csv-parse)
 * as it reads the file's pages from the database (a few at a time: the file is never whole in memory), and imports
 * 1000 rows per transaction together with the job's progress, so a restart resumes after the last committed batch.
 * A row sets what its cells hold on the contact of its number (made if new): email and name when given, tags added,
 * attributes merged; a bad row is reported with its number and reason and the rest go on.
 */
@Injectable()
export class ContactImportWorker extends BackgroundWorker {
  private readonly logger = new Logger('ContactImportWorker');
  private readonly workerId = randomUUID();
  protected readonly loop = new WorkerLoop({
    name: 'contact imports',
    pass: async () => {
      const job = await this.claim();
      if (!job) return null;
      await this.work(job);
      return 'more';
    },
    sweepMs: SWEEP_MS,
    logger: this.logger,
  });

  constructor(
    private readonly imports: ContactImportsStore,
    private readonly relay: OutboxRelay,
  ) {
    super();
  }


  /** The oldest job nobody works on (queued, or running under a lease that ran out). */
  private claim(): Promise<ClaimedJob | undefined> {
    return this.imports.claim(this.workerId, LEASE_SECONDS);
  }

  private async work(job: ClaimedJob): Promise<void> {
    try {
      if (job.total === null) {
        const total = await countRows(this.pages(job.id));
        await this.imports.setTotal(job.id, total);
      }
      let batch: Batch = { rows: [], failures: [], nextRow: job.next_row };
      let phones = new Set<string>();
      let row = 0;
      for await (const record of csvRecords(this.pages(job.id))) {
        row++;
        if (this.loop.stopping) return;
        if (row < job.next_row) continue;
        const outcome = readImportRow(row, record as Record<string, string>);
        // one statement cannot change a contact twice: a number seen again in the batch starts the next one
        if (outcome.ok && phones.has(outcome.value.phone)) {
          await this.commit(job, batch);
          batch = { rows: [], failures: [], nextRow: row };
          phones = new Set();
        }
        if (outcome.ok) {
          batch.rows.push(outcome.value);
          phones.add(outcome.value.phone);
        } else {
          batch.failures.push({ row: outcome.row, error: outcome.error });
        }
        batch.nextRow = row + 1;
        if (batch.rows.length + batch.failures.length >= BATCH_ROWS) {
          await this.commit(job, batch);
          batch = { rows: [], failures: [], nextRow: row + 1 };
          phones = new Set();
        }
      }
      await this.commit(job, batch, 'completed');
    } catch (err) {
      if (!isParseError(err)) throw err;
      // the file itself cannot be read on: what was imported stays, the job says why it stopped (its file goes)
      await this.imports.fail(job.id, this.workerId, String((err as Error).message).slice(0, 500));
    }
  }

  /** The job's file, a page at a time in order, read as the parser asks for more. */
  private async *pages(jobId: string): AsyncGenerator<string> {
    let seq = 0;
    for (;;) {
      const rows = await this.imports.pages(jobId, seq, PAGES_PER_READ);
      for (const row of rows) yield row.text;
      if (rows.length < PAGES_PER_READ) return;
      seq = rows[rows.length - 1].seq + 1;
    }
  }

  /** Imports a batch and records the job's progress in one transaction (nothing, if another worker took the job over). */
  private async commit(job: ClaimedJob, batch: Batch, status: 'running' | 'completed' = 'running'): Promise<void> {
    await this.imports.transaction(async (tx) => {
      if (!(await this.imports.renewLease(job.id, this.workerId, LEASE_SECONDS, tx))) throw new Error(`import ${job.id} was taken over by another worker`);
      const { created, updated } = await importBatch(this.imports, tx, job.tenant_id, batch.rows);
      // a finished job's file is needed no more (and names its contacts' numbers)
      await this.imports.recordProgress(job.id, { nextRow: batch.nextRow, created, updated, failures: batch.failures, status }, MAX_REPORTED_FAILURES, tx);
    });
    this.relay.wake();
  }
}

/**
 * Upserts a batch (one number at most once) by `(tenant_id, phone)`, under row locks on the contacts it changes, so
 * tags and attributes merge with what they hold now. A contact only changes (and `contact.updated` only goes out)
 * when the row changes something; a matched contact counts as updated either way.
 */
async function importBatch(imports: ContactImportsStore, tx: EntityManager, tenantId: string, rows: ImportRow[]): Promise<{ created: number; updated: number }> {
  if (rows.length === 0) return { created: 0, updated: 0 };
  const existing = await imports.lockByPhones(
    tenantId,
    rows.map((r) => r.phone),
    tx,
  );
  const byPhone = new Map(existing.map((c) => [c.phone, c]));
  const values = rows.map((r) => {
    const current = byPhone.get(r.phone);
    return {
      id: newId('ctc'),
      phone: r.phone,
      email: r.email,
      name: r.name,
      tags: current ? [...new Set([...current.tags, ...r.tags])].slice(0, 50) : r.tags,
      attributes: current ? mergeAttributes(current.attributes, r.attributes) : r.attributes,
    };
  });
  const changed = await imports.upsertContacts(tenantId, values, tx);
  await enqueueEvents(
    tx,
    changed.map(({ inserted, ...row }) => (inserted ? contactCreated(row) : contactUpdated(row))),
  );
  const created = changed.filter((c) => c.inserted).length;
  return { created, updated: rows.length - created };
}

/** A row's attributes over the contact's; keys beyond the 50 a contact may have are left out (existing ones win). */
function mergeAttributes(current: ContactRow['attributes'], incoming: ImportRow['attributes']): ContactRow['attributes'] {
  const merged = { ...current };
  for (const [key, value] of Object.entries(incoming)) {
    if (key in merged || Object.keys(merged).length < 50) merged[key] = value;
  }
  return merged;
}

/**
 * The file's records as its reader asks for them, parsed from its pages as they are read (issue 19: neither the file
 * nor its parsed records are ever whole in memory; backpressure holds the parser to a few pages ahead).
 */
function csvRecords(pages: AsyncIterable<string>): AsyncIterable<unknown> {
  return Readable.from(pages, { objectMode: false }).pipe(parse({ bom: true, columns: importColumns, skip_empty_lines: true, relax_column_count: true }));
}

async function countRows(pages: AsyncIterable<string>): Promise<number> {
  let rows = 0;
  try {
    for await (const _ of csvRecords(pages)) rows++;
  } catch (err) {
    if (!isParseError(err)) throw err;
  }
  return rows;
}

/** csv-parse's errors (a quote never closed, …) and the header's, as importColumns throws them. */
function isParseError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as Error & { code?: unknown }).code;
  return typeof code === 'string' ? code.startsWith('CSV_') : /column|header/.test(err.message);
}
