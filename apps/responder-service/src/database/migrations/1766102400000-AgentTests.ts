import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A business's own test set per agent (issue 36, CONTRACT.md §19), and the run of that set against each new version
 * of the agent. A run is queued in the change's delivery before the read model takes the version, with the agent as it
 * is at that version and as it was before (`previous_agent`, what "fixed" and "broken" compare with), so that a worker
 * can run it later, on any instance, and a crash resumes it (`lease_until`).
 */
export class AgentTests1766102400000 implements MigrationInterface {
  name = 'AgentTests1766102400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_tests (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_name text NOT NULL,
        message text NOT NULL,
        expect jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX agent_tests_by_agent ON agent_tests (tenant_id, agent_name, created_at, id)`);
    await q.query(`
      CREATE TABLE agent_test_runs (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_name text NOT NULL,
        agent_id text NOT NULL,
        version integer NOT NULL,
        agent jsonb NOT NULL,
        previous_agent jsonb,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed')),
        lease_owner text,
        lease_until timestamptz,
        passed integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        cases jsonb NOT NULL DEFAULT '[]',
        fixed jsonb NOT NULL DEFAULT '[]',
        broken jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        UNIQUE (tenant_id, agent_id, version)
      )`);
    await q.query(`CREATE INDEX agent_test_runs_by_version ON agent_test_runs (tenant_id, agent_name, version DESC)`);
    await q.query(`CREATE INDEX agent_test_runs_to_do ON agent_test_runs (created_at) WHERE status <> 'completed'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_test_runs`);
    await q.query(`DROP TABLE agent_tests`);
  }
}
