import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each agent reply did (issue 36, CONTRACT.md §19 analytics), written with the reply: answered from knowledge,
 * not known, handed to a person, or something else (small talk, a dialogue step); whether it booked or captured a
 * lead; the knowledge it used (FAQ, document, instruction). Read per agent over a time range, by day and language.
 */
export class ReplyOutcomes1766016000000 implements MigrationInterface {
  name = 'ReplyOutcomes1766016000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE reply_outcomes (
        tenant_id text NOT NULL,
        message_id text NOT NULL,
        agent_name text NOT NULL,
        at timestamptz NOT NULL,
        language text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('answered', 'not_known', 'handed_off', 'other')),
        booked boolean NOT NULL DEFAULT false,
        lead boolean NOT NULL DEFAULT false,
        sources jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (tenant_id, message_id)
      )`);
    await q.query(`CREATE INDEX reply_outcomes_by_agent ON reply_outcomes (tenant_id, agent_name, at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reply_outcomes`);
  }
}
