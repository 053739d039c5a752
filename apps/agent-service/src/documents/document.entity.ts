import type { DocumentLastRefresh, DocumentPassageData, DocumentRefreshSchedule, DocumentSource, DocumentStatus } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * One document of an agent. Accepted as `processing` with its raw upload (or its URL) stored here, so an accepted
 * document survives any crash; a worker claims it under a lease, and a claim whose worker died is taken again once the
 * lease ran out. Ready documents keep their passages (to announce again); deleted ones stay until announced.
 */
@Entity({ name: 'documents' })
export class DocumentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** Not a foreign key: an agent's row goes once its deletion is announced, its documents once theirs are. */
  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ name: 'agent_name', type: 'text' })
  agentName!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  source!: DocumentSource;

  @Column({ type: 'text', nullable: true })
  url!: string | null;

  /** The upload's format (`text/markdown`, `application/pdf`, …); null for a URL until it is fetched. */
  @Column({ name: 'content_type', type: 'text', nullable: true })
  contentType!: string | null;

  /** The upload as received, kept until processed. */
  @Column({ type: 'bytea', nullable: true, select: false })
  raw!: Buffer | null;

  @Column({ type: 'text' })
  status!: DocumentStatus;

  @Column({ type: 'int', nullable: true })
  chunks!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'jsonb', nullable: true, select: false })
  passages!: DocumentPassageData[] | null;

  /** Processing attempts started; a document whose worker keeps dying fails after a few. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** Until when the worker that claimed it owns it. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  /** Bumped by each change to announce (ready, deleted). */
  @Column({ type: 'int', default: 0 })
  version!: number;

  /** Last version announced on `document.changed`. */
  @Column({ name: 'published_version', type: 'int', default: 0 })
  publishedVersion!: number;

  /** How often a `url` document is fetched again (CONTRACT.md §19). */
  @Column({ type: 'text', default: 'off' })
  refresh!: DocumentRefreshSchedule;

  /** The page's validators from the last fetch that read it, sent back in a conditional request. */
  @Column({ type: 'text', nullable: true })
  etag!: string | null;

  @Column({ name: 'last_modified', type: 'text', nullable: true })
  lastModified!: string | null;

  /** When the refresher fetches it next (null: never). */
  @Column({ name: 'next_refresh_at', type: 'timestamptz', nullable: true })
  nextRefreshAt!: Date | null;

  @Column({ name: 'last_refresh_at', type: 'timestamptz', nullable: true })
  lastRefreshAt!: Date | null;

  @Column({ name: 'last_refresh_status', type: 'text', nullable: true })
  lastRefreshStatus!: DocumentLastRefresh['status'] | null;

  @Column({ name: 'last_refresh_error', type: 'text', nullable: true })
  lastRefreshError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Set on delete (or the agent's); the row is removed once the deletion has been announced. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
