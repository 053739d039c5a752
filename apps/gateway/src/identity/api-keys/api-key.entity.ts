import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's API key. Only its SHA-256 and a short display prefix are kept. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
