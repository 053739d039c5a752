import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's OAuth2 client-credentials client. Only the scrypt hash of its secret is kept. */
@Entity({ name: 'oauth_clients' })
export class OAuthClientEntity {
  @PrimaryColumn({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
