import type { ChannelKind, ChannelProvider } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'channels' })
export class ChannelEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text', default: 'whatsapp' })
  kind!: ChannelKind;

  @Column({ type: 'text' })
  provider!: ChannelProvider;

  /** The business number, E.164 with a leading `+`; for an email channel, its address (lower case). */
  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber!: string;

  /** The provider's id of the number: how notifications find their tenant. */
  @Column({ name: 'phone_number_id', type: 'text', unique: true, nullable: true })
  phoneNumberId!: string | null;

  @Column({ name: 'waba_id', type: 'text', nullable: true })
  wabaId!: string | null;

  /**
   * The credential, AES-256-GCM encrypted (CredentialCipher). Never returned or logged. WhatsApp: the access token;
   * SMS: `{"account_sid","auth_token"}` JSON; email: the SMTP URL (with its credentials).
   */
  @Column({ name: 'credentials_encrypted', type: 'text' })
  credentialsEncrypted!: string;

  @Column({ type: 'text', nullable: true })
  agent!: string | null;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault!: boolean;

  @Column({ type: 'text', default: 'connected' })
  status!: 'connected' | 'disconnected';

  /** Messages per second this number may send; null: the provider's default. */
  @Column({ name: 'send_limit_per_second', type: 'int', nullable: true })
  sendLimitPerSecond!: number | null;

  /** 360dialog: SHA-256 (hex) of the token its notifications carry in `X-Channel-Token`. */
  @Column({ name: 'inbound_token_sha256', type: 'text', nullable: true })
  inboundTokenSha256!: string | null;

  /** Embedded signup: the two-step verification PIN the number was registered with, encrypted like the token. */
  @Column({ name: 'registration_pin_encrypted', type: 'text', nullable: true })
  registrationPinEncrypted!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
