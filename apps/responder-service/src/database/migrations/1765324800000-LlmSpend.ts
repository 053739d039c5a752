import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each tenant's LLM spend of the month as billing-service last told it (`llm.spend`), held against its LLM budget. */
export class LlmSpend1765324800000 implements MigrationInterface {
  name = 'LlmSpend1765324800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE llm_spend (
      tenant_id text PRIMARY KEY,
      -- YYYY-MM (UTC): a spend of an earlier month does not count against this month's budget.
      month text NOT NULL,
      spend numeric(20, 6) NOT NULL CHECK (spend >= 0),
      currency text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE llm_spend`);
  }
}
