import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents that stay fresh (issue 36, CONTRACT.md §19): a `url` document may be fetched again daily or weekly. It keeps
 * the page's validators (`etag`, `last_modified`) for a conditional request, when it is due next (`next_refresh_at`,
 * spread so that many documents saved at once do not all come due in the same minute), the latest refresh's outcome,
 * and a lease of its own (a refresh must not wait behind, or hold up, the processing lease of new uploads).
 */
export class DocumentRefresh1766102400000 implements MigrationInterface {
  name = 'DocumentRefresh1766102400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE documents
        ADD COLUMN refresh text NOT NULL DEFAULT 'off' CHECK (refresh IN ('off', 'daily', 'weekly')),
        ADD COLUMN etag text,
        ADD COLUMN last_modified text,
        ADD COLUMN next_refresh_at timestamptz,
        ADD COLUMN refresh_lease_until timestamptz,
        ADD COLUMN last_refresh_at timestamptz,
        ADD COLUMN last_refresh_status text CHECK (last_refresh_status IN ('unchanged', 'updated', 'failed')),
        ADD COLUMN last_refresh_error text`);
    await q.query(`CREATE INDEX documents_refresh_due ON documents (next_refresh_at) WHERE next_refresh_at IS NOT NULL AND deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX documents_refresh_due`);
    await q.query(`
      ALTER TABLE documents DROP COLUMN refresh, DROP COLUMN etag, DROP COLUMN last_modified, DROP COLUMN next_refresh_at,
        DROP COLUMN refresh_lease_until, DROP COLUMN last_refresh_at, DROP COLUMN last_refresh_status, DROP COLUMN last_refresh_error`);
  }
}
