import { Column, Entity } from 'typeorm';
import { SkillRecordEntity } from '../skills/skill-record.entity';

/** A booking made by `appointment_booking`. A slot holds one `booked` appointment (a partial unique index). */
@Entity({ name: 'appointments' })
export class AppointmentEntity extends SkillRecordEntity {
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
