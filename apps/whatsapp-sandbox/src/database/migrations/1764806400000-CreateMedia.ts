import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Media (CONTRACT.md §13): files a business uploaded (`POST /{phone_number_id}/media`) or a customer sent, with
 * their bytes, so a test can read back exactly what a customer received; and the content of non-text messages.
 */
export class CreateMedia1764806400000 implements MigrationInterface {
  name = 'CreateMedia1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE media (
        id text PRIMARY KEY,
        phone_number_id text NOT NULL,
        direction text NOT NULL,
        mime_type text NOT NULL,
        sha256 text NOT NULL,
        size integer NOT NULL,
        filename text,
        data bytea NOT NULL,
        failures_left integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE messages ADD COLUMN content jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN content`);
    await q.query(`DROP TABLE media`);
  }
}
