import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound media waiting to be downloaded from the provider (CONTRACT.md §13): one row per customer media message,
 * worked by its own loop with back-off; the message is announced once its file is stored (or given up on).
 */
export class MediaDownloads1764979200000 implements MigrationInterface {
  name = 'MediaDownloads1764979200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE media_downloads (
        message_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        channel_id text NOT NULL,
        inbound jsonb NOT NULL,
        received_at timestamptz NOT NULL,
        request_id text,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        due_at timestamptz NOT NULL DEFAULT now(),
        claimed_until timestamptz
      )`);
    await q.query(`CREATE INDEX media_downloads_due ON media_downloads (due_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE media_downloads`);
  }
}
