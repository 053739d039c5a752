import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ContactImportJob } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { CONTACT_COLUMNS, type ContactRow } from '../contacts/contacts.mapper';

/** An import job as its status route shows it. */
export interface ImportJobRow {
  id: string;
  status: ContactImportJob['status'];
  total: number | null;
  created: number;
  updated: number;
  failed: { row: number; error: string }[];
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A job a worker holds under its lease. */
export interface ClaimedJob {
  id: string;
  tenant_id: string;
  total: number | null;
  next_row: number;
}

/** What a batch of rows sets on the contacts of their numbers (the merge with what they hold is decided before). */
export interface ImportedContact {
  id: string;
  phone: string;
  email: string | null;
  name: string | null;
  tags: string[];
  attributes: Record<string, unknown>;
}

/** How far a committed batch took the job. */
export interface ImportProgress {
  nextRow: number;
  created: number;
  updated: number;
  failures: { row: number; error: string }[];
  status: 'running' | 'completed';
}

/**
 * CSV imports as durable jobs: the job, its file in pages (`contact_import_chunks`, so the file is never whole in
 * memory), claims under a lease by worker id, and the batches' contacts. Methods that run inside the caller's unit of
 * work take its `tx`.
 */
@Injectable()
export class ContactImportsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insertJob(tenantId: string, id: string, tx: EntityManager): Promise<void> {
    await tx.query(`INSERT INTO contact_imports (id, tenant_id) VALUES ($1, $2)`, [id, tenantId]);
  }

  /** Pages of the job's file, numbered on from `firstSeq`. */
  async insertPages(jobId: string, firstSeq: number, pages: string[], tx: EntityManager): Promise<void> {
    await tx.query(`INSERT INTO contact_import_chunks (job_id, seq, text) SELECT $1, $2 + n - 1, text FROM unnest($3::text[]) WITH ORDINALITY AS p(text, n)`, [
      jobId,
      firstSeq,
      pages,
    ]);
  }

  async job(tenantId: string, id: string): Promise<ImportJobRow | null> {
    const [row]: ImportJobRow[] = await this.db.query(
      `SELECT id, status, total, created, updated, failed, error, created_at, updated_at FROM contact_imports WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return row ?? null;
  }

  /** The oldest job nobody works on (queued, or running under a lease that ran out), now `worker`'s for `leaseSeconds`. */
  async claim(worker: string, leaseSeconds: number): Promise<ClaimedJob | undefined> {
    const [[job]]: [ClaimedJob[]] = await this.db.query(
      `UPDATE contact_imports SET status = 'running', worker = $1, lease_until = now() + make_interval(secs => $2), updated_at = now()
       WHERE id = (SELECT id FROM contact_imports WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
                   ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, tenant_id, total, next_row`,
      [worker, leaseSeconds],
    );
    return job;
  }

  async setTotal(jobId: string, total: number): Promise<void> {
    await this.db.query(`UPDATE contact_imports SET total = $2, updated_at = now() WHERE id = $1`, [jobId, total]);
  }

  /** Up to `limit` pages of the job's file from `fromSeq`, in order. */
  pages(jobId: string, fromSeq: number, limit: number): Promise<{ seq: number; text: string }[]> {
    return this.db.query(`SELECT seq, text FROM contact_import_chunks WHERE job_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3`, [jobId, fromSeq, limit]);
  }

  /** The job stops with why (its file goes), if `worker` still holds it. */
  async fail(jobId: string, worker: string, error: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [, failed] = (await tx.query(`UPDATE contact_imports SET status = 'failed', error = $2, lease_until = NULL, updated_at = now() WHERE id = $1 AND worker = $3`, [
        jobId,
        error,
        worker,
      ])) as [unknown, number];
      if (failed > 0) await tx.query(`DELETE FROM contact_import_chunks WHERE job_id = $1`, [jobId]);
    });
  }

  /** Extends `worker`'s lease; false when another worker took the job over. */
  async renewLease(jobId: string, worker: string, leaseSeconds: number, tx: EntityManager): Promise<boolean> {
    const [[owned]]: [unknown[]] = await tx.query(
      `UPDATE contact_imports SET lease_until = now() + make_interval(secs => $3), updated_at = now() WHERE id = $1 AND worker = $2 RETURNING id`,
      [jobId, worker, leaseSeconds],
    );
    return Boolean(owned);
  }

  /** Records a batch's progress (at most `maxFailures` failures kept); a completed job's file is needed no more. */
  async recordProgress(jobId: string, progress: ImportProgress, maxFailures: number, tx: EntityManager): Promise<void> {
    await tx.query(
      `UPDATE contact_imports SET next_row = $2, created = created + $3, updated = updated + $4, status = $5,
         failed = CASE WHEN jsonb_array_length(failed) >= $7 THEN failed ELSE failed || $6::jsonb END,
         lease_until = CASE WHEN $5 = 'completed' THEN NULL ELSE lease_until END, updated_at = now()
       WHERE id = $1`,
      [jobId, progress.nextRow, progress.created, progress.updated, progress.status, JSON.stringify(progress.failures.slice(0, maxFailures)), maxFailures],
    );
    if (progress.status === 'completed') await tx.query(`DELETE FROM contact_import_chunks WHERE job_id = $1`, [jobId]);
  }

  /** The tenant's contacts of these numbers, locked for `tx`, with what an import merges into. */
  lockByPhones(tenantId: string, phones: string[], tx: EntityManager): Promise<Pick<ContactRow, 'phone' | 'tags' | 'attributes'>[]> {
    return tx.query(`SELECT phone, tags, attributes FROM contacts WHERE tenant_id = $1 AND phone = ANY($2) ORDER BY id FOR UPDATE`, [tenantId, phones]);
  }

  /**
   * Upserts the contacts by `(tenant_id, phone)` (one number at most once); a contact changes only when the row changes
   * something. Answers the rows made or changed, each saying whether it was made.
   */
  upsertContacts(tenantId: string, contacts: ImportedContact[], tx: EntityManager): Promise<(ContactRow & { inserted: boolean })[]> {
    return tx.query(
      `INSERT INTO contacts AS c (id, tenant_id, phone, email, name, tags, attributes)
       SELECT r.id, $2, r.phone, r.email, r.name, r.tags, r.attributes
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, phone text, email text, name text, tags text[], attributes jsonb)
       ON CONFLICT (tenant_id, phone) DO UPDATE
         SET email = coalesce(EXCLUDED.email, c.email), name = coalesce(EXCLUDED.name, c.name), tags = EXCLUDED.tags,
             attributes = EXCLUDED.attributes, updated_at = now()
         WHERE (coalesce(EXCLUDED.email, c.email), coalesce(EXCLUDED.name, c.name), EXCLUDED.tags, EXCLUDED.attributes)
               IS DISTINCT FROM (c.email, c.name, c.tags, c.attributes)
       RETURNING ${CONTACT_COLUMNS}, (xmax = 0) AS inserted`,
      [JSON.stringify(contacts), tenantId],
    );
  }
}
