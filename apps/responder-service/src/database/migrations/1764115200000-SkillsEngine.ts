import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SkillsEngine1764115200000 implements MigrationInterface {
  name = 'SkillsEngine1764115200000';

  async up(q: QueryRunner): Promise<void> {
    // What the skills remember between replies (lead facts so far, the slot being booked).
    await q.query(`ALTER TABLE conversations ADD COLUMN skill_state jsonb NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX conversations_tenant_recent ON conversations (tenant_id, id DESC)`);

    // One lead per conversation: corrections after completion update it.
    await q.query(`
      CREATE TABLE leads (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_name text NOT NULL,
        conversation_id text NOT NULL UNIQUE,
        customer text NOT NULL,
        name text,
        email text,
        phone text,
        interest text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX leads_tenant_recent ON leads (tenant_id, id DESC)`);

    await q.query(`
      CREATE TABLE appointments (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_name text NOT NULL,
        conversation_id text NOT NULL,
        customer text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        timezone text NOT NULL,
        status text NOT NULL CHECK (status IN ('booked', 'cancelled')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A slot of an agent's calendar holds one booking, however many conversations race for it.
    await q.query(`CREATE UNIQUE INDEX appointments_slot_booked ON appointments (tenant_id, agent_name, starts_at) WHERE status = 'booked'`);
    await q.query(`CREATE INDEX appointments_tenant_recent ON appointments (tenant_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE appointments`);
    await q.query(`DROP TABLE leads`);
    await q.query(`DROP INDEX conversations_tenant_recent`);
    await q.query(`ALTER TABLE conversations DROP COLUMN skill_state`);
  }
}
