import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Team operations (CONTRACT.md §18): teams with their routing, hours and SLA; the tenant's ordered routing rules;
 * members' presence; and on each conversation what routing needs. `queued_at` is set by the agent's handoff (in the
 * reply's own statement): from then until someone holds it, the conversation waits in its team's queue, oldest first.
 * `routed_at` says routing picked the team for that handoff, `assigned_at` that routing (not a person) gave it to its
 * assignee, which the reassign timer then watches; `member_replied_at` is a person's last reply (the first response).
 * `sla_breaches` names the targets missed this handoff (each announced once); `sla_check_at` is the next due time to check.
 * `handed_off_at` (the first handoff), `first_member_reply_at` and `closed_at` are what the reports measure.
 */
export class TeamOperations1766361600000 implements MigrationInterface {
  name = 'TeamOperations1766361600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE teams (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        members text[] NOT NULL DEFAULT '{}',
        routing text NOT NULL CHECK (routing IN ('round_robin', 'least_busy', 'manual')),
        capacity_per_member int,
        reassign_after_seconds int,
        timezone text NOT NULL,
        business_hours jsonb NOT NULL,
        holidays text[] NOT NULL DEFAULT '{}',
        closed_message text,
        sla jsonb,
        last_assigned text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT teams_name UNIQUE (tenant_id, name)
      )`);
    await q.query(`
      CREATE TABLE routing_rules (
        tenant_id text NOT NULL,
        position int NOT NULL,
        match jsonb NOT NULL,
        team_id text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        PRIMARY KEY (tenant_id, position)
      )`);
    await q.query(`CREATE INDEX routing_rules_team ON routing_rules (team_id)`);
    await q.query(`
      CREATE TABLE member_presence (
        tenant_id text NOT NULL,
        member_id text NOT NULL,
        status text NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'away')),
        seen_at timestamptz,
        PRIMARY KEY (tenant_id, member_id)
      )`);
    await q.query(`
      ALTER TABLE conversations
        ADD COLUMN team_id text,
        ADD COLUMN labels text[] NOT NULL DEFAULT '{}',
        ADD COLUMN queued_at timestamptz,
        ADD COLUMN handoff_skill text,
        ADD COLUMN routed_at timestamptz,
        ADD COLUMN assigned_at timestamptz,
        ADD COLUMN member_replied_at timestamptz,
        ADD COLUMN customer_told_at timestamptz,
        ADD COLUMN sla_first_response_due_at timestamptz,
        ADD COLUMN sla_resolution_due_at timestamptz,
        ADD COLUMN sla_breaches text[] NOT NULL DEFAULT '{}',
        ADD COLUMN handed_off_at timestamptz,
        ADD COLUMN first_member_reply_at timestamptz,
        ADD COLUMN closed_at timestamptz,
        ADD COLUMN sla_check_at timestamptz`);
    // the queue: handed off by the agent, nobody holds it yet
    await q.query(`CREATE INDEX conversations_routing_queue ON conversations (queued_at) WHERE queued_at IS NOT NULL AND state = 'handed_off' AND assignee IS NULL`);
    // assignments the reassign timer watches
    await q.query(`CREATE INDEX conversations_routed_assignments ON conversations (assigned_at) WHERE assigned_at IS NOT NULL AND state = 'handed_off'`);
    // SLA due times still to check (the earliest unmet one; null when none is left)
    await q.query(`CREATE INDEX conversations_sla_checks ON conversations (sla_check_at) WHERE sla_check_at IS NOT NULL`);
    await q.query(`CREATE INDEX conversations_team ON conversations (tenant_id, team_id) WHERE team_id IS NOT NULL`);
    // reports read a period's conversations by when they started
    await q.query(`CREATE INDEX conversations_started ON conversations (tenant_id, started_at)`);
    await q.query(`ALTER TABLE contact_names ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE contact_names DROP COLUMN tags`);
    await q.query(`
      ALTER TABLE conversations DROP COLUMN team_id, DROP COLUMN labels, DROP COLUMN queued_at, DROP COLUMN handoff_skill, DROP COLUMN routed_at,
        DROP COLUMN assigned_at, DROP COLUMN member_replied_at, DROP COLUMN customer_told_at, DROP COLUMN sla_first_response_due_at,
        DROP COLUMN sla_resolution_due_at, DROP COLUMN sla_breaches, DROP COLUMN sla_check_at,
        DROP COLUMN handed_off_at, DROP COLUMN first_member_reply_at, DROP COLUMN closed_at`);
    await q.query(`DROP INDEX IF EXISTS conversations_started`);
    await q.query(`DROP TABLE member_presence`);
    await q.query(`DROP TABLE routing_rules`);
    await q.query(`DROP TABLE teams`);
  }
}
