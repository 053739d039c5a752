import { Column, Entity } from 'typeorm';
import { SkillRecordEntity } from '../skills/skill-record.entity';

/** A lead collected by `lead_capture`, one per conversation. */
@Entity({ name: 'leads' })
export class LeadEntity extends SkillRecordEntity {
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
