import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The notification outbox: every notification the sandbox owes the gateway, stored with the message it is about and
 * deleted once the gateway answered 200. `due_at` is both the schedule (back-off) and the claim's lease.
 */
export class CreateNotificationOutbox1764115200000 implements MigrationInterface {
  name = 'CreateNotificationOutbox1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        message_key text NOT NULL,
        body text NOT NULL,
        due_at timestamptz NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX notifications_due ON notifications (due_at, id)`);
    await q.query(`CREATE INDEX notifications_message ON notifications (message_key, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notifications`);
  }
}
