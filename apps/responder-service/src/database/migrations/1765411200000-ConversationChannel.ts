import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The channel a conversation is on (CONTRACT.md §17): the inbox shows and filters it, and a person's reply goes out on
 * it. Conversations from before it were WhatsApp's.
 */
export class ConversationChannel1765411200000 implements MigrationInterface {
  name = 'ConversationChannel1765411200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations ADD COLUMN channel text NOT NULL DEFAULT 'whatsapp'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations DROP COLUMN channel`);
  }
}
