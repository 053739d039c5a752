import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type AttributeValue = string | number | boolean;

/** A tenant's contact (CONTRACT.md §14): one per phone number and tenant. */
@Entity({ name: 'contacts' })
export class ContactEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  /** E.164; unique per tenant. */
  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'company_id', type: 'text', nullable: true })
  companyId!: string | null;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  tags!: string[];

  @Column({ type: 'jsonb', default: () => `'{}'` })
  attributes!: Record<string, AttributeValue>;

  @Column({ name: 'opted_out', type: 'boolean', default: false })
  optedOut!: boolean;

  @Column({ name: 'opted_out_changed_at', type: 'timestamptz', nullable: true })
  optedOutChangedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** The lead a contact was captured as (`lead.captured`): leads stay in responder-service, linked here by id. */
@Entity({ name: 'contact_leads' })
export class ContactLeadEntity {
  @PrimaryColumn({ name: 'lead_id', type: 'text' })
  leadId!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'contact_id', type: 'text' })
  contactId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
