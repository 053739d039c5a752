import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentPassageData } from '@parley/contracts';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import type { PageValidators } from './document-fetcher';
import { DocumentEntity } from './document.entity';

/** What processing made of a document: its passages (and a fetched page's validators), or why it cannot be read. */
export type ProcessingOutcome = { status: 'ready'; passages: DocumentPassageData[]; validators?: PageValidators } | { status: 'failed'; error: string };

/** A new document as accepted: everything but the bookkeeping the store starts itself. */
export type NewDocument = Pick<DocumentEntity, 'id' | 'agentId' | 'agentName' | 'title' | 'source' | 'url' | 'contentType' | 'raw' | 'refresh'>;

/** A `url` document whose refresh is due, leased to one refresher (`lease`: its token, the lease's end). */
export interface DueRefresh {
  id: string;
  tenantId: string;
  url: string;
  validators: PageValidators;
  lease: Date;
}

/** What a refresh found: the same page, a changed one (its passages), or a failure (the document keeps its passages). */
export type RefreshOutcome =
  | { status: 'unchanged'; validators: PageValidators | null }
  | { status: 'updated'; passages: DocumentPassageData[]; validators: PageValidators }
  | { status: 'failed'; error: string };

/**
 * When a document with a refresh schedule is fetched next: a period on, plus up to an hour at random, so that documents
 * saved together (an import, a migration) spread out instead of all coming due in the same minute.
 */
const NEXT_REFRESH = `CASE refresh WHEN 'daily' THEN now() + interval '1 day' + random() * interval '1 hour'
                                   WHEN 'weekly' THEN now() + interval '7 days' + random() * interval '1 hour' END`;
/** A refresh that failed is tried again this soon (the document keeps its last good passages meanwhile). */
const RETRY_REFRESH = `CASE WHEN refresh = 'off' THEN NULL ELSE now() + interval '1 hour' END`;

/**
 * Agents' documents as stored: accepted whole (`processing`), claimed by a processor under a lease, finished once, and
 * kept (deleted ones too) until their last change is announced. The tenant id is the first parameter of every method
 * that reads a tenant's documents; the processor's methods work across tenants, a document at a time.
 */
@Injectable()
export class DocumentsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  insert(tenantId: string, document: NewDocument): Promise<DocumentEntity> {
    const repo = this.db.getRepository(DocumentEntity);
    return repo.save(
      repo.create({
        ...document,
        tenantId,
        status: 'processing',
        chunks: null,
        error: null,
        passages: null,
        attempts: 0,
        leaseUntil: null,
        version: 0,
        publishedVersion: 0,
        deletedAt: null,
      }),
    );
  }

  /** An agent's live documents newest first: up to `limit` with an id below `beforeId` (null: from the newest). */
  list(tenantId: string, agentId: string, limit: number, beforeId: string | null): Promise<DocumentEntity[]> {
    const query = this.db
      .getRepository(DocumentEntity)
      .createQueryBuilder('d')
      .where('d.tenant_id = :tenantId AND d.agent_id = :agentId AND d.deleted_at IS NULL', { tenantId, agentId })
      .orderBy('d.id', 'DESC')
      .take(limit);
    if (beforeId !== null) query.andWhere('d.id < :beforeId', { beforeId });
    return query.getMany();
  }

  /** Adds pages as `url` documents in the caller's transaction (a sitemap import completing), each `processing`. */
  async insertPages(tx: EntityManager, tenantId: string, agent: { id: string; name: string }, pages: readonly { id: string; url: string; title: string }[], refresh: DocumentEntity['refresh']): Promise<void> {
    if (pages.length === 0) return;
    await tx.query(
      `INSERT INTO documents (id, tenant_id, agent_id, agent_name, title, source, url, status, refresh)
       SELECT p.id, $1, $2, $3, p.title, 'url', p.url, 'processing', $4
         FROM jsonb_to_recordset($5::jsonb) AS p(id text, url text, title text)`,
      [tenantId, agent.id, agent.name, refresh, JSON.stringify(pages)],
    );
  }

  /** The addresses of an agent's live `url` documents, and how many live documents it has. */
  async liveUrls(tenantId: string, agentId: string): Promise<{ urls: Set<string>; count: number }> {
    const rows: { url: string | null }[] = await this.db.query(`SELECT url FROM documents WHERE tenant_id = $1 AND agent_id = $2 AND deleted_at IS NULL`, [tenantId, agentId]);
    return { urls: new Set(rows.flatMap((r) => (r.url ? [r.url] : []))), count: rows.length };
  }

  findLive(tenantId: string, agentId: string, id: string): Promise<DocumentEntity | null> {
    return this.db.getRepository(DocumentEntity).findOne({ where: { id, tenantId, agentId, deletedAt: IsNull() } });
  }

  /** Marks a live document deleted (a new version, to be announced); null when the agent has no such document. */
  markDeleted(tenantId: string, agentId: string, id: string): Promise<DocumentEntity | null> {
    return this.db.transaction(async (tx) => {
      const document = await tx.getRepository(DocumentEntity).findOne({
        where: { id, tenantId, agentId, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!document) return null;
      document.deletedAt = new Date();
      document.version += 1;
      return tx.save(document);
    });
  }

  /** A document's passages as processing left them (not loaded with the document: they can be large). */
  async passagesOf(tenantId: string, id: string): Promise<DocumentPassageData[]> {
    const row = await this.db.getRepository(DocumentEntity).findOne({ where: { id, tenantId }, select: { id: true, passages: true } });
    return row?.passages ?? [];
  }

  /** The announced version is recorded; a deleted document's row goes. Unless it changed since (another announcement follows). */
  async markAnnounced(document: DocumentEntity): Promise<void> {
    const repo = this.db.getRepository(DocumentEntity);
    if (document.deletedAt !== null) await repo.delete({ id: document.id, version: document.version });
    else await repo.update({ id: document.id, version: document.version }, { publishedVersion: document.version });
  }

  /** Every tenant's documents whose last change is not announced yet, oldest first. */
  unannounced(limit: number): Promise<DocumentEntity[]> {
    return this.db.getRepository(DocumentEntity).createQueryBuilder('d').where('d.published_version < d.version').orderBy('d.updated_at', 'ASC').take(limit).getMany();
  }

  /**
   * Claims the oldest document waiting to be processed for `leaseMs` (`SKIP LOCKED`: instances never share one; a claim
   * whose lease ran out is taken again) and counts the attempt; with its upload. Null when none waits.
   */
  async claimNext(leaseMs: number): Promise<DocumentEntity | null> {
    const [rows] = (await this.db.query(
      `UPDATE documents SET lease_until = now() + $1 * interval '1 millisecond', attempts = attempts + 1
        WHERE id = (
          SELECT id FROM documents
           WHERE status = 'processing' AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until < now())
           ORDER BY created_at
           LIMIT 1
             FOR UPDATE SKIP LOCKED)
        RETURNING id`,
      [leaseMs],
    )) as [{ id: string }[], number];
    if (rows.length === 0) return null;
    return this.db.getRepository(DocumentEntity).createQueryBuilder('d').addSelect('d.raw').where('d.id = :id', { id: rows[0].id }).getOne();
  }

  /** In how many milliseconds the earliest processing lease runs out (negative: it has; null: no document is being processed). */
  async earliestLeaseEndsInMs(): Promise<number | null> {
    const [row] = (await this.db.query(
      `SELECT (EXTRACT(EPOCH FROM min(lease_until) - now()) * 1000)::float8 AS ms FROM documents WHERE status = 'processing' AND deleted_at IS NULL`,
    )) as { ms: number | null }[];
    return row.ms;
  }

  /**
   * Writes the outcome of a claim if the document is still live and still that claim's (its attempt count); a ready
   * document is a new version, to be announced. True when written.
   */
  async finish(document: DocumentEntity, outcome: ProcessingOutcome): Promise<boolean> {
    const ready = outcome.status === 'ready';
    const [, updated] = (await this.db.query(
      `UPDATE documents
          SET status = $3, passages = $4, chunks = $5, error = $6, raw = NULL, lease_until = NULL,
              version = version + $7, updated_at = now(), etag = $8, last_modified = $9,
              next_refresh_at = CASE WHEN $3 = 'ready' THEN ${NEXT_REFRESH} END
        WHERE id = $1 AND attempts = $2 AND status = 'processing' AND deleted_at IS NULL`,
      [
        document.id,
        document.attempts,
        outcome.status,
        ready ? JSON.stringify(outcome.passages) : null,
        ready ? outcome.passages.length : null,
        outcome.status === 'failed' ? outcome.error : null,
        ready ? 1 : 0,
        (ready && outcome.validators?.etag) || null,
        (ready && outcome.validators?.lastModified) || null,
      ],
    )) as [unknown[], number];
    return updated > 0;
  }

  /** Leases the `url` document whose refresh is the most overdue for `leaseMs`; null when none is due. */
  async claimDueRefresh(leaseMs: number): Promise<DueRefresh | null> {
    const [rows] = (await this.db.query(
      // milliseconds: the lease's end is its token, and a JavaScript Date holds no finer time
      `UPDATE documents SET refresh_lease_until = date_trunc('milliseconds', now() + $1 * interval '1 millisecond')
        WHERE id = (
          SELECT id FROM documents
           WHERE next_refresh_at <= now() AND deleted_at IS NULL AND status = 'ready'
             AND (refresh_lease_until IS NULL OR refresh_lease_until < now())
           ORDER BY next_refresh_at
           LIMIT 1
             FOR UPDATE SKIP LOCKED)
        RETURNING id, tenant_id, url, etag, last_modified, refresh_lease_until`,
      [leaseMs],
    )) as [{ id: string; tenant_id: string; url: string; etag: string | null; last_modified: string | null; refresh_lease_until: Date }[], number];
    const row = rows[0];
    return row ? { id: row.id, tenantId: row.tenant_id, url: row.url, validators: { etag: row.etag, lastModified: row.last_modified }, lease: row.refresh_lease_until } : null;
  }

  /**
   * Writes what a refresh found if the lease is still this refresher's and the document still live, and sets when it
   * is due next. An updated page replaces the passages in this one statement (a new version, to be announced): the
   * agent never reads a half-updated document. The document as it now is, or null when the lease was lost.
   */
  async finishRefresh(refresh: DueRefresh, outcome: RefreshOutcome): Promise<DocumentEntity | null> {
    const updated = outcome.status === 'updated';
    const validators = outcome.status === 'failed' ? null : outcome.validators;
    const [rows] = (await this.db.query(
      `UPDATE documents
          SET refresh_lease_until = NULL, last_refresh_at = now(), last_refresh_status = $3, last_refresh_error = $4,
              next_refresh_at = CASE WHEN $3 = 'failed' THEN ${RETRY_REFRESH} ELSE ${NEXT_REFRESH} END,
              etag = CASE WHEN $5::boolean THEN $6 ELSE etag END,
              last_modified = CASE WHEN $5::boolean THEN $7 ELSE last_modified END,
              passages = CASE WHEN $8::boolean THEN $9::jsonb ELSE passages END,
              chunks = CASE WHEN $8::boolean THEN $10 ELSE chunks END,
              version = version + CASE WHEN $8::boolean THEN 1 ELSE 0 END,
              updated_at = CASE WHEN $8::boolean THEN now() ELSE updated_at END
        WHERE id = $1 AND refresh_lease_until = $2 AND deleted_at IS NULL
        RETURNING id`,
      [
        refresh.id,
        refresh.lease,
        outcome.status,
        outcome.status === 'failed' ? outcome.error : null,
        validators !== null,
        validators?.etag ?? null,
        validators?.lastModified ?? null,
        updated,
        updated ? JSON.stringify(outcome.passages) : null,
        updated ? outcome.passages.length : null,
      ],
    )) as [{ id: string }[], number];
    if (rows.length === 0) return null;
    return this.db.getRepository(DocumentEntity).findOne({ where: { id: refresh.id, tenantId: refresh.tenantId } });
  }

  /** In how many milliseconds the next refresh falls due (negative: overdue; null: none is scheduled). */
  async nextRefreshInMs(): Promise<number | null> {
    const [row] = (await this.db.query(
      `SELECT (EXTRACT(EPOCH FROM min(GREATEST(next_refresh_at, COALESCE(refresh_lease_until, next_refresh_at))) - now()) * 1000)::float8 AS ms
         FROM documents WHERE next_refresh_at IS NOT NULL AND deleted_at IS NULL AND status = 'ready'`,
    )) as { ms: number | null }[];
    return row.ms;
  }
}

/**
 * Marks every live document of an agent deleted, in the transaction that deletes the agent (AgentsStore.markDeleted);
 * the relay then announces their tombstones (and removes them), so the agent's passages leave the responder too.
 */
export async function markAgentDocumentsDeleted(tx: EntityManager, tenantId: string, agentId: string): Promise<void> {
  await tx
    .createQueryBuilder()
    .update(DocumentEntity)
    .set({ deletedAt: () => 'now()', version: () => 'version + 1' })
    .where('tenant_id = :tenantId AND agent_id = :agentId AND deleted_at IS NULL', { tenantId, agentId })
    .execute();
}
