import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sitemap imports (issue 36, CONTRACT.md §19): queued with the request, worked by one instance under a lease (a crash
 * resumes it: the pages become documents in the transaction that completes the import, so a retry adds none twice).
 */
export class DocumentImports1766188800000 implements MigrationInterface {
  name = 'DocumentImports1766188800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE document_imports (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_id text NOT NULL,
        agent_name text NOT NULL,
        sitemap_url text NOT NULL,
        refresh text NOT NULL CHECK (refresh IN ('off', 'daily', 'weekly')),
        max_pages int NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        pages_found int,
        documents_added int NOT NULL DEFAULT 0,
        pages_skipped int NOT NULL DEFAULT 0,
        skipped jsonb NOT NULL DEFAULT '[]',
        error text,
        attempts int NOT NULL DEFAULT 0,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX document_imports_to_do ON document_imports (created_at) WHERE status IN ('queued', 'running')`);
    await q.query(`CREATE INDEX document_imports_by_agent ON document_imports (tenant_id, agent_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE document_imports`);
  }
}
