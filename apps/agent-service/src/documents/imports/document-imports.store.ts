import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentImportRecord, DocumentImportStatus, DocumentRefreshSchedule } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { SkippedPage } from './import-plan';

interface ImportRow {
  id: string;
  tenant_id: string;
  agent_id: string;
  agent_name: string;
  sitemap_url: string;
  refresh: DocumentRefreshSchedule;
  max_pages: number;
  status: DocumentImportStatus;
  pages_found: number | null;
  documents_added: number;
  pages_skipped: number;
  skipped: SkippedPage[];
  error: string | null;
  attempts: number;
  created_at: Date;
  completed_at: Date | null;
}

/** An import a worker holds: the row, and the attempt that is its claim. */
export type ClaimedImport = Pick<ImportRow, 'id' | 'sitemap_url' | 'refresh' | 'max_pages' | 'attempts'> & { tenantId: string; agentId: string; agentName: string };

/** What an import found, written with the documents it adds. */
export interface ImportOutcome {
  pagesFound: number;
  added: number;
  skipped: SkippedPage[];
}

/** Skipped pages kept on the import (the count is whole). */
const SKIPPED_SHOWN = 50;
const COLUMNS = `id, tenant_id, agent_id, agent_name, sitemap_url, refresh, max_pages, status, pages_found, documents_added, pages_skipped,
  skipped, error, attempts, created_at, completed_at`;

/** Sitemap imports in SQL; reads are scoped by tenant and agent, the worker's claim works across tenants. */
@Injectable()
export class DocumentImportsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(tenantId: string, id: string, agent: { id: string; name: string }, sitemapUrl: string, refresh: DocumentRefreshSchedule, maxPages: number): Promise<DocumentImportRecord> {
    const [row]: ImportRow[] = await this.db.query(
      `INSERT INTO document_imports (id, tenant_id, agent_id, agent_name, sitemap_url, refresh, max_pages) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${COLUMNS}`,
      [id, tenantId, agent.id, agent.name, sitemapUrl, refresh, maxPages],
    );
    return toRecord(row);
  }

  async find(tenantId: string, agentId: string, id: string): Promise<DocumentImportRecord | null> {
    const [row]: ImportRow[] = await this.db.query(`SELECT ${COLUMNS} FROM document_imports WHERE tenant_id = $1 AND agent_id = $2 AND id = $3`, [tenantId, agentId, id]);
    return row ? toRecord(row) : null;
  }

  /** The oldest import nobody works on (queued, or running under a lease that ran out), leased; its attempt counted. */
  async claim(leaseMs: number): Promise<ClaimedImport | null> {
    const [rows] = (await this.db.query(
      `UPDATE document_imports SET status = 'running', attempts = attempts + 1, lease_until = now() + $1 * interval '1 millisecond'
        WHERE id = (SELECT id FROM document_imports
                     WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS}`,
      [leaseMs],
    )) as [ImportRow[], number];
    const row = rows[0];
    return row
      ? { id: row.id, tenantId: row.tenant_id, agentId: row.agent_id, agentName: row.agent_name, sitemap_url: row.sitemap_url, refresh: row.refresh, max_pages: row.max_pages, attempts: row.attempts }
      : null;
  }

  /** Completes the import if `claim` still holds it (its attempt), in the caller's transaction; false when it was lost. */
  async complete(tx: EntityManager, claim: ClaimedImport, outcome: ImportOutcome): Promise<boolean> {
    const [, updated] = (await tx.query(
      `UPDATE document_imports SET status = 'completed', pages_found = $3, documents_added = $4, pages_skipped = $5, skipped = $6,
              lease_until = NULL, completed_at = now()
        WHERE id = $1 AND attempts = $2 AND status = 'running'`,
      [claim.id, claim.attempts, outcome.pagesFound, outcome.added, outcome.skipped.length, JSON.stringify(outcome.skipped.slice(0, SKIPPED_SHOWN))],
    )) as [unknown[], number];
    return updated > 0;
  }

  async fail(claim: ClaimedImport, error: string): Promise<void> {
    await this.db.query(
      `UPDATE document_imports SET status = 'failed', error = $3, lease_until = NULL, completed_at = now() WHERE id = $1 AND attempts = $2 AND status = 'running'`,
      [claim.id, claim.attempts, error],
    );
  }

  /** In how many milliseconds the earliest running import's lease runs out (null: none runs). */
  async earliestLeaseEndsInMs(): Promise<number | null> {
    const [row] = (await this.db.query(
      `SELECT (EXTRACT(EPOCH FROM min(lease_until) - now()) * 1000)::float8 AS ms FROM document_imports WHERE status = 'running'`,
    )) as { ms: number | null }[];
    return row.ms;
  }
}

function toRecord(row: ImportRow): DocumentImportRecord {
  return {
    import_id: row.id,
    agent: row.agent_name,
    sitemap_url: row.sitemap_url,
    refresh: row.refresh,
    max_pages: row.max_pages,
    status: row.status,
    pages_found: row.pages_found,
    documents_added: row.documents_added,
    pages_skipped: row.pages_skipped,
    skipped: row.skipped,
    error: row.error,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
  };
}
