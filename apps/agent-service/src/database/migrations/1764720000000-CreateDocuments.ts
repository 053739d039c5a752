import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDocuments1764720000000 implements MigrationInterface {
  name = 'CreateDocuments1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE documents (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_id text NOT NULL,
        agent_name text NOT NULL,
        title text NOT NULL,
        source text NOT NULL CHECK (source IN ('text', 'url', 'file')),
        url text,
        content_type text,
        raw bytea,
        status text NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
        chunks int,
        error text,
        passages jsonb,
        attempts int NOT NULL DEFAULT 0,
        lease_until timestamptz,
        version int NOT NULL DEFAULT 0,
        published_version int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX documents_agent_live ON documents (tenant_id, agent_id, id DESC) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX documents_to_process ON documents (created_at) WHERE status = 'processing' AND deleted_at IS NULL`);
    await q.query(`CREATE INDEX documents_unpublished ON documents (updated_at) WHERE published_version < version`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE documents`);
  }
}
