import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's media file (CONTRACT.md §13); its bytes are in the media store under `storageKey`. */
@Entity({ name: 'media' })
export class MediaEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** Hex SHA-256 of the bytes: unique per tenant (an upload of the same bytes answers this record). */
  @Column({ type: 'text' })
  sha256!: string;

  @Column({ name: 'mime_type', type: 'text' })
  mimeType!: string;

  @Column({ type: 'bigint' })
  size!: string;

  @Column({ type: 'text', nullable: true })
  filename!: string | null;

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Swept after this (MEDIA_RETENTION_DAYS from the last upload of these bytes). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
