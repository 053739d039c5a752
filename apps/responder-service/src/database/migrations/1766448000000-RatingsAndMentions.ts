import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSAT (CONTRACT.md §18): closing a conversation inside the customer's window asks them, once, to rate it
 * (`csat_requested_at`); their answer, 1 to 5, is kept on that conversation. Notes may @mention members: each note
 * keeps whom it mentions, and its conversation everyone its notes mentioned (the inbox's "mentioning me").
 */
export class RatingsAndMentions1766448000000 implements MigrationInterface {
  name = 'RatingsAndMentions1766448000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE conversations
        ADD COLUMN csat_requested_at timestamptz,
        ADD COLUMN rating_score int CHECK (rating_score BETWEEN 1 AND 5),
        ADD COLUMN rating_comment text,
        ADD COLUMN rated_at timestamptz,
        ADD COLUMN mentioned text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE conversation_notes ADD COLUMN mentions text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversation_notes DROP COLUMN mentions`);
    await q.query(`ALTER TABLE conversations DROP COLUMN csat_requested_at, DROP COLUMN rating_score, DROP COLUMN rating_comment, DROP COLUMN rated_at, DROP COLUMN mentioned`);
  }
}
