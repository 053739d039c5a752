import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a thread message carried besides its text (CONTRACT.md §13): a customer's photo or tapped reply; null for text. */
export class TurnContent1764979200000 implements MigrationInterface {
  name = 'TurnContent1764979200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversation_messages ADD COLUMN content jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversation_messages DROP COLUMN content`);
  }
}
