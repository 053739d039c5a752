import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A statement-level trigger fires whatever the statement inserted: every ingest of events no endpoint subscribes to
 * (most of them: a tenant without webhooks, a type nobody asked for) NOTIFYed `webhook_deliveries`, and every
 * instance's dispatcher woke to claim nothing, its recursive claim query a fifth of PostgreSQL's busy time in `npm run
 * bench -- cost` (issue 33). NOTIFY also serializes the commits that send it. The trigger now reads the statement's
 * inserted rows (a transition table) and notifies only when there are some.
 */
export class NotifyOnlyCreatedDeliveries1765929600000 implements MigrationInterface {
  name = 'NotifyOnlyCreatedDeliveries1765929600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION deliveries_created_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM created) THEN
          PERFORM pg_notify('webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER deliveries_queued ON deliveries`);
    await q.query(
      `CREATE TRIGGER deliveries_queued AFTER INSERT ON deliveries REFERENCING NEW TABLE AS created FOR EACH STATEMENT EXECUTE FUNCTION deliveries_created_notify()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER deliveries_queued ON deliveries`);
    await q.query(`CREATE TRIGGER deliveries_queued AFTER INSERT ON deliveries FOR EACH STATEMENT EXECUTE FUNCTION deliveries_notify()`);
    await q.query(`DROP FUNCTION deliveries_created_notify()`);
  }
}
