import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEnvelope } from '@parley/contracts';
import { DataSource, type EntityManager } from 'typeorm';

/** An event queued for publishing, as the outbox keeps it. */
export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  envelope: EventEnvelope;
}

/** SQL of the outbox: events queued inside the transaction that decided them, read and deleted once published. */
@Injectable()
export class OutboxStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(envelope: EventEnvelope, key: string, tx: EntityManager): Promise<void> {
    await tx.query(`INSERT INTO outbox (id, topic, key, envelope) VALUES ($1, $2, $3, $4)`, [envelope.id, envelope.type, key, JSON.stringify(envelope)]);
  }

  /** Many events in one statement (none: no statement). */
  async insertMany(events: readonly { envelope: EventEnvelope; key: string }[], tx: EntityManager): Promise<void> {
    if (!events.length) return;
    await tx.query(
      `INSERT INTO outbox (id, topic, key, envelope) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])`,
      [events.map((e) => e.envelope.id), events.map((e) => e.envelope.type), events.map((e) => e.key), events.map((e) => JSON.stringify(e.envelope))],
    );
  }

  /** The oldest `limit` queued events, in the order they were queued. */
  oldest(limit: number): Promise<OutboxRow[]> {
    return this.db.query(`SELECT id, topic, key, envelope FROM outbox ORDER BY created_at, id LIMIT $1`, [limit]) as Promise<OutboxRow[]>;
  }

  async delete(ids: readonly string[]): Promise<void> {
    await this.db.query(`DELETE FROM outbox WHERE id = ANY($1)`, [ids]);
  }
}
