import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher claims per endpoint: each endpoint's pending deliveries in due order. The global due-order index
 * it replaces made every claim walk past a dead endpoint's whole backlog (the oldest due rows) before reaching a
 * healthy endpoint's work.
 */
export class PerEndpointQueue1764028800000 implements MigrationInterface {
  name = 'PerEndpointQueue1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX deliveries_endpoint_queue ON deliveries (endpoint_id, next_attempt_at, id) WHERE status = 'pending'`);
    await q.query(`DROP INDEX deliveries_due`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`DROP INDEX deliveries_endpoint_queue`);
  }
}
