import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant's secret calendar feed: whoever holds `token` reads the tenant's appointments (and nothing else). */
@Entity({ name: 'calendar_feeds' })
export class CalendarFeedEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ type: 'text', unique: true })
  token!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
