import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A lead collected by `lead_capture`, one per conversation. */
@Entity({ name: 'leads' })
export class LeadEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'agent_name', type: 'text' })
  agentName!: string;

  @Column({ name: 'conversation_id', type: 'text' })
  conversationId!: string;

  @Column({ type: 'text' })
  customer!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ type: 'text', nullable: true })
  interest!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
