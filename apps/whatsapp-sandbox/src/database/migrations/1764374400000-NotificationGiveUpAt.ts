import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each notification carries its own horizon: a status callback is given up after a day (as before), a customer's
 * inbound message only after seven (as Meta retries them). Rows already owed keep the day they had.
 */
export class NotificationGiveUpAt1764374400000 implements MigrationInterface {
  name = 'NotificationGiveUpAt1764374400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications ADD COLUMN give_up_at timestamptz`);
    await q.query(`UPDATE notifications SET give_up_at = created_at + interval '1 day'`);
    await q.query(`ALTER TABLE notifications ALTER COLUMN give_up_at SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications DROP COLUMN give_up_at`);
  }
}
