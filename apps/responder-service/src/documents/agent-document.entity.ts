import type { DocumentPassageData } from '@parley/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The responder's copy of one agent document's passages, as last announced on `document.changed`. A deleted document
 * stays as a tombstone (`deleted_at` set, passages cleared): document ids are never reused, so nothing may bring it back.
 */
@Entity({ name: 'agent_documents' })
export class AgentDocumentEntity {
  @PrimaryColumn({ name: 'document_id', type: 'text' })
  documentId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ type: 'text' })
  title!: string;

  /** Null on a tombstone. */
  @Column({ type: 'jsonb', nullable: true })
  passages!: DocumentPassageData[] | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  /** The passages' views in the model's space (VectorSet.toBuffer), made by `vectorsModel`; null until embedded. */
  @Column({ type: 'bytea', nullable: true })
  vectors!: Buffer | null;

  @Column({ name: 'vectors_model', type: 'text', nullable: true })
  vectorsModel!: string | null;
}
