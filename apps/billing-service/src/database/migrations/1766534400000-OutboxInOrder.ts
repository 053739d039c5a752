import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox in service-kit's shape (issue 34: one outbox for every service): rows numbered as they are queued, so the
 * one relay publishes them in that order. It was keyed by event id and read by time, each instance publishing.
 */
export class OutboxInOrder1766534400000 implements MigrationInterface {
  name = 'OutboxInOrder1766534400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox RENAME TO outbox_by_event`);
    await q.query(`ALTER TABLE outbox_by_event RENAME CONSTRAINT outbox_pkey TO outbox_by_event_pkey`);
    await q.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO outbox (topic, key, envelope, created_at) SELECT topic, key, envelope, created_at FROM outbox_by_event ORDER BY created_at, id`);
    await q.query(`DROP TABLE outbox_by_event`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox RENAME TO outbox_in_order`);
    await q.query(`ALTER TABLE outbox_in_order RENAME CONSTRAINT outbox_pkey TO outbox_in_order_pkey`);
    await q.query(`
      CREATE TABLE outbox (
        id text PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO outbox (id, topic, key, envelope, created_at) SELECT envelope->>'id', topic, key, envelope, created_at FROM outbox_in_order`);
    await q.query(`DROP TABLE outbox_in_order`);
  }
}
