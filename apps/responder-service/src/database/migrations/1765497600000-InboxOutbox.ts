import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox of the inbox's actions (a member's reply, handoff, close, assign, note): written in the action's
 * transaction, published by the relay after the commit, so an action is recorded and announced both or neither.
 */
export class InboxOutbox1765497600000 implements MigrationInterface {
  name = 'InboxOutbox1765497600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE outbox (
      id bigserial PRIMARY KEY,
      topic text NOT NULL,
      key text NOT NULL,
      envelope jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbox`);
  }
}
