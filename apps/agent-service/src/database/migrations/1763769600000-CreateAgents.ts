import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAgents1763769600000 implements MigrationInterface {
  name = 'CreateAgents1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        instruction text NOT NULL,
        greeting text NOT NULL,
        skills jsonb NOT NULL,
        faqs jsonb NOT NULL,
        booking jsonb,
        version int NOT NULL,
        published_version int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX agents_tenant_name_live ON agents (tenant_id, name) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX agents_unpublished ON agents (id) WHERE published_version < version OR deleted_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE agent_versions (
        agent_id text NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        version int NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (agent_id, version)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_versions`);
    await q.query(`DROP TABLE agents`);
  }
}
