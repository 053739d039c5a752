import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Media, location and interactive messages (CONTRACT.md §13): their content as sent (`messages.content`), and the
 * provider's media id of each file per channel (the Cloud API sends media by an id its upload route gave).
 */
export class RichMessagesAndProviderMedia1764892800000 implements MigrationInterface {
  name = 'RichMessagesAndProviderMedia1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN content jsonb`);
    await q.query(`
      CREATE TABLE provider_media (
        media_id text NOT NULL REFERENCES media (id) ON DELETE CASCADE,
        channel_id text NOT NULL,
        provider_media_id text NOT NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (media_id, channel_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_media`);
    await q.query(`ALTER TABLE messages DROP COLUMN content`);
  }
}
