import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentDocuments1764720000000 implements MigrationInterface {
  name = 'AgentDocuments1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_documents (
        document_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_id text NOT NULL,
        title text NOT NULL,
        passages jsonb,
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX agent_documents_live ON agent_documents (tenant_id, agent_id) WHERE deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_documents`);
  }
}
