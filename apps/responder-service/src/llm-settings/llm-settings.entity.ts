import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's own LLM; its key is stored only as CredentialCipher ciphertext. */
@Entity({ name: 'llm_settings' })
export class LlmSettingsEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'base_url', type: 'text' })
  baseUrl!: string;

  @Column({ name: 'api_key_encrypted', type: 'text' })
  apiKeyEncrypted!: string;

  @Column({ name: 'api_key_last4', type: 'text' })
  apiKeyLast4!: string;

  @Column({ type: 'text' })
  model!: string;

  /** Money stays a decimal string end to end. */
  @Column({ name: 'monthly_budget', type: 'numeric' })
  monthlyBudget!: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
