import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentPassageData } from '@parley/contracts';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { DocumentEntity } from './document.entity';

/** What processing made of a document: its passages, or why it cannot be read. */
export type ProcessingOutcome = { status: 'ready'; passages: DocumentPassageData[] } | { status: 'failed'; error: string };

/** A new document as accepted: everything but the bookkeeping the store starts itself. */
export type NewDocument = Pick<DocumentEntity, 'id' | 'agentId' | 'agentName' | 'title' | 'source' | 'url' | 'contentType' | 'raw'>;

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
    const [, updated] = (await this.db.query(
      `UPDATE documents
          SET status = $3, passages = $4, chunks = $5, error = $6, raw = NULL, lease_until = NULL,
              version = version + $7, updated_at = now()
        WHERE id = $1 AND attempts = $2 AND status = 'processing' AND deleted_at IS NULL`,
      [
        document.id,
        document.attempts,
        outcome.status,
        outcome.status === 'ready' ? JSON.stringify(outcome.passages) : null,
        outcome.status === 'ready' ? outcome.passages.length : null,
        outcome.status === 'failed' ? outcome.error : null,
        outcome.status === 'ready' ? 1 : 0,
      ],
    )) as [unknown[], number];
    return updated > 0;
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
