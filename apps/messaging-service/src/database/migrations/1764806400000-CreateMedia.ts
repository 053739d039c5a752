import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Media records (CONTRACT.md §13): the bytes are in the media store under `storage_key`; one record per tenant and
 * content (sha256), kept until `expires_at` (MEDIA_RETENTION_DAYS after its last upload), then swept.
 */
export class CreateMedia1764806400000 implements MigrationInterface {
  name = 'CreateMedia1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE media (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        sha256 text NOT NULL,
        mime_type text NOT NULL,
        size bigint NOT NULL,
        filename text,
        storage_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CONSTRAINT media_tenant_sha256 UNIQUE (tenant_id, sha256)
      )`);
    await q.query(`CREATE INDEX media_expires_at ON media (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE media`);
  }
}
