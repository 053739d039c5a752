import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DocumentPassageData } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';

/** A live document of an agent as stored, with its passages' vectors and the model that made them. */
export interface AgentDocumentRow {
  document_id: string;
  title: string;
  passages: DocumentPassageData[];
  vectors: Buffer | null;
  vectors_model: string | null;
}

/** The read model of agents' documents, one row per document; a deletion is a tombstone no later change undoes. */
@Injectable()
export class AgentDocumentsStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A ready document's passages (and vectors) replace its previous ones; `passages` null: deleted. */
  async apply(
    tenantId: string,
    document: { documentId: string; agentId: string; title: string; passages: DocumentPassageData[] | null; vectors: Buffer | null; vectorsModel: string | null },
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_documents AS cur (document_id, tenant_id, agent_id, title, passages, deleted_at, vectors, vectors_model)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $5::jsonb IS NULL THEN now() END, $6, $7)
       ON CONFLICT (document_id) DO UPDATE SET
         title = EXCLUDED.title, passages = EXCLUDED.passages, deleted_at = EXCLUDED.deleted_at,
         vectors = EXCLUDED.vectors, vectors_model = EXCLUDED.vectors_model
       WHERE cur.deleted_at IS NULL AND cur.tenant_id = EXCLUDED.tenant_id`,
      [document.documentId, tenantId, document.agentId, document.title, document.passages === null ? null : JSON.stringify(document.passages), document.vectors, document.vectorsModel],
    );
  }

  /** The agent's live documents in the order they were added (inside `tx` when given). */
  live(tenantId: string, agentId: string, tx: EntityManager = this.db.manager): Promise<AgentDocumentRow[]> {
    return tx.query(
      `SELECT document_id, title, passages, vectors, vectors_model FROM agent_documents
        WHERE tenant_id = $1 AND agent_id = $2 AND deleted_at IS NULL
        ORDER BY document_id`,
      [tenantId, agentId],
    );
  }
}
