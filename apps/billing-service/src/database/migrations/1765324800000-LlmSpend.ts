import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each tenant's LLM tokens cost per month (the budget the responder checks, CONTRACT.md §16), and how many units a
 * charge stands for: one message, or the tokens of one LLM call, so an invoice's `llm_token` line counts tokens.
 */
export class LlmSpend1765324800000 implements MigrationInterface {
  name = 'LlmSpend1765324800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE charges ADD COLUMN quantity bigint NOT NULL DEFAULT 1 CHECK (quantity > 0)`);
    // LLM charges written before this column stood for their tokens: their description says how many.
    await q.query(`
      UPDATE charges c SET quantity = substring(t.description from '^(\\d+) LLM tokens')::bigint
        FROM ledger_transactions t
       WHERE c.category = 'llm_token' AND t.cause_id = c.message_id AND t.kind = 'settlement' AND t.description ~ '^\\d+ LLM tokens'`);
    await q.query(`
      CREATE TABLE llm_spend (
        tenant_id text NOT NULL,
        -- The first day of the month (UTC).
        month date NOT NULL,
        currency text NOT NULL,
        spend numeric(20, 6) NOT NULL CHECK (spend >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, month)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE llm_spend`);
    await q.query(`ALTER TABLE charges DROP COLUMN quantity`);
  }
}
