import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { AttributeValue } from '../contacts/contact.entity';

/** A tenant's company (CONTRACT.md §14); contacts link to it by `company_id`. */
@Entity({ name: 'companies' })
export class CompanyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  domain!: string | null;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  attributes!: Record<string, AttributeValue>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
