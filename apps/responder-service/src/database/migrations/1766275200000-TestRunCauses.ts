import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A test set also runs when an agent's documents change (issue 36: "every agent version change: instruction, FAQs,
 * documents, skills"), which makes no new agent version: a version may have several runs, one per cause
 * (`version:<n>`, or `document:<document id>:<event id>`, so a redelivered change queues none again whatever version
 * the agent is at by then), and a run records the version it was compared with (`compared_version`: for a document
 * change, the version of the run before it).
 */
export class TestRunCauses1766275200000 implements MigrationInterface {
  name = 'TestRunCauses1766275200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_test_runs ADD COLUMN cause text, ADD COLUMN compared_version integer`);
    await q.query(`UPDATE agent_test_runs SET cause = 'version:' || version`);
    await q.query(`ALTER TABLE agent_test_runs ALTER COLUMN cause SET NOT NULL`);
    await q.query(`UPDATE agent_test_runs SET compared_version = (previous_agent->>'version')::int WHERE status = 'completed'`);
    await q.query(`ALTER TABLE agent_test_runs DROP CONSTRAINT agent_test_runs_tenant_id_agent_id_version_key`);
    await q.query(`CREATE UNIQUE INDEX agent_test_runs_once ON agent_test_runs (tenant_id, agent_id, cause)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX agent_test_runs_once`);
    await q.query(`DELETE FROM agent_test_runs WHERE cause NOT LIKE 'version:%'`);
    await q.query(`ALTER TABLE agent_test_runs ADD CONSTRAINT agent_test_runs_tenant_id_agent_id_version_key UNIQUE (tenant_id, agent_id, version)`);
    await q.query(`ALTER TABLE agent_test_runs DROP COLUMN cause, DROP COLUMN compared_version`);
  }
}
