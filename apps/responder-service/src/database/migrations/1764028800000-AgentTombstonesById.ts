import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `agent.changed` now names the agent and its version on deletions too, so the read model orders agents of one name by
 * their (time-ordered) id and tombstones a deleted agent even when it never saw it live: such a tombstone has no record.
 * `agent_updated_at` only served the old "deleted after its last change" guess.
 */
export class AgentTombstonesById1764028800000 implements MigrationInterface {
  name = 'AgentTombstonesById1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents DROP COLUMN agent_updated_at`);
    await q.query(`ALTER TABLE agents ALTER COLUMN record DROP NOT NULL, ALTER COLUMN agent_created_at DROP NOT NULL`);
    await q.query(`ALTER TABLE agents ADD CONSTRAINT agents_live_has_record CHECK (deleted_at IS NOT NULL OR (record IS NOT NULL AND agent_created_at IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents DROP CONSTRAINT agents_live_has_record`);
    await q.query(`DELETE FROM agents WHERE record IS NULL`);
    await q.query(`ALTER TABLE agents ALTER COLUMN record SET NOT NULL, ALTER COLUMN agent_created_at SET NOT NULL`);
    await q.query(`ALTER TABLE agents ADD COLUMN agent_updated_at timestamptz`);
    await q.query(`UPDATE agents SET agent_updated_at = (record->>'updated_at')::timestamptz`);
    await q.query(`ALTER TABLE agents ALTER COLUMN agent_updated_at SET NOT NULL`);
  }
}
