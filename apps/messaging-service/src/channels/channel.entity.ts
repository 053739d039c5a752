import type { WhatsappProvider } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'channels' })
export class ChannelEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  provider!: WhatsappProvider;

  /** The business number, E.164 with a leading `+`. */
  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber!: string;

  /** The provider's id of the number: how notifications find their tenant. */
  @Column({ name: 'phone_number_id', type: 'text', unique: true })
  phoneNumberId!: string;

  @Column({ name: 'waba_id', type: 'text', nullable: true })
  wabaId!: string | null;

  /** The access token, AES-256-GCM encrypted (CredentialCipher). Never returned or logged. */
  @Column({ name: 'credentials_encrypted', type: 'text' })
  credentialsEncrypted!: string;

  @Column({ type: 'text', nullable: true })
  agent!: string | null;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  @Column({ type: 'text', default: 'connected' })
  status!: 'connected' | 'disconnected';

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
