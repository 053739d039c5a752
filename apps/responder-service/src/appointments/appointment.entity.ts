import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A booking made by `appointment_booking`. A slot holds one `booked` appointment (a partial unique index). */
@Entity({ name: 'appointments' })
export class AppointmentEntity {
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

  @Column({ name: 'starts_at', type: 'timestamptz' })
  startsAt!: Date;

  @Column({ name: 'ends_at', type: 'timestamptz' })
  endsAt!: Date;

  @Column({ type: 'text' })
  timezone!: string;

  @Column({ type: 'text' })
  status!: 'booked' | 'cancelled';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
