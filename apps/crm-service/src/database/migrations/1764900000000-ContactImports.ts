import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV imports as durable jobs (CONTRACT.md §14): the file is kept with its job, and `next_row` (the first data row not
 * yet imported) advances in the transaction that imports each batch, so a worker that dies mid-file resumes after the
 * last committed batch, on any instance, once its lease has run out.
 */
export class ContactImports1764900000000 implements MigrationInterface {
  name = 'ContactImports1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_imports (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        csv text NOT NULL,
        total integer,
        next_row integer NOT NULL DEFAULT 1,
        created integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        failed jsonb NOT NULL DEFAULT '[]',
        error text,
        -- the instance working on it until lease_until; another takes it over once the lease has run out
        worker text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX contact_imports_pending ON contact_imports (created_at) WHERE status IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_imports`);
  }
}
