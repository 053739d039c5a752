import { Column, PrimaryColumn } from 'typeorm';

/**
 * The columns every record a skill writes in a conversation has (a lead, an appointment): whose it is, which agent and
 * conversation made it, and the customer. Not a table: each entity extending it is one, with these columns its own.
 */
export abstract class SkillRecordEntity {
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
}
