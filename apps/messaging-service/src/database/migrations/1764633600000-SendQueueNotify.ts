import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The send queue tells its workers when it changes, so an idle worker sleeps instead of polling: a statement that
 * queues rows or moves their due time NOTIFYs `messaging_send_queue` (delivered at commit, once per transaction).
 */
export class SendQueueNotify1764633600000 implements MigrationInterface {
  name = 'SendQueueNotify1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION send_queue_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('messaging_send_queue', '');
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER send_queue_changed AFTER INSERT OR UPDATE OF due_at ON send_queue FOR EACH STATEMENT EXECUTE FUNCTION send_queue_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER send_queue_changed ON send_queue`);
    await q.query(`DROP FUNCTION send_queue_notify()`);
  }
}
