import type { EventEnvelope } from '@parley/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An event written in the transaction of the change it announces, published to Kafka by the relay, then deleted. */
@Entity({ name: 'outbox' })
export class OutboxEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  topic!: string;

  @Column({ type: 'text' })
  key!: string;

  @Column({ type: 'jsonb' })
  envelope!: EventEnvelope;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
