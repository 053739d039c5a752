import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ordered endpoints and re-sending: the conversation an event belongs to (copied onto its deliveries, so the
 * dispatcher can hold a later one back while an earlier one of the same conversation is pending), and the
 * attempt count at which a delivery's retry schedule restarts (a manual retry or replay gets a fresh schedule).
 */
export class OrderedAndResentDeliveries1763942400000 implements MigrationInterface {
  name = 'OrderedAndResentDeliveries1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN ordering_key text`);
    await q.query(`ALTER TABLE deliveries ADD COLUMN ordering_key text`);
    await q.query(`ALTER TABLE deliveries ADD COLUMN retry_base int NOT NULL DEFAULT 0`);
    await q.query(
      `CREATE INDEX deliveries_pending_ordering ON deliveries (endpoint_id, ordering_key, created_at, id) WHERE status = 'pending' AND ordering_key IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX deliveries_pending_ordering`);
    await q.query(`ALTER TABLE deliveries DROP COLUMN retry_base`);
    await q.query(`ALTER TABLE deliveries DROP COLUMN ordering_key`);
    await q.query(`ALTER TABLE events DROP COLUMN ordering_key`);
  }
}
