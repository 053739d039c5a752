import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * New work tells every instance's dispatcher, so an idle one sleeps instead of polling: a statement that queues
 * deliveries (ingest, a test event, a replay) or enables or disables an endpoint NOTIFYs `webhook_deliveries`
 * (delivered at commit, once per transaction). Retries come due on each dispatcher's own timer.
 */
export class DeliveriesNotify1764460800000 implements MigrationInterface {
  name = 'DeliveriesNotify1764460800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('webhook_deliveries', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER deliveries_queued AFTER INSERT ON deliveries FOR EACH STATEMENT EXECUTE FUNCTION deliveries_notify()`);
    await q.query(`CREATE TRIGGER endpoints_enabled AFTER UPDATE OF enabled ON endpoints FOR EACH STATEMENT EXECUTE FUNCTION deliveries_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER endpoints_enabled ON endpoints`);
    await q.query(`DROP TRIGGER deliveries_queued ON deliveries`);
    await q.query(`DROP FUNCTION deliveries_notify()`);
  }
}
