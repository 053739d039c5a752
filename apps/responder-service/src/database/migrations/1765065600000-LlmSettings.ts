import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A tenant's own OpenAI-compatible endpoint, key (encrypted) and model, and its monthly LLM budget (issue 23 item 7). */
export class LlmSettings1765065600000 implements MigrationInterface {
  name = 'LlmSettings1765065600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE llm_settings (
      tenant_id text PRIMARY KEY,
      base_url text NOT NULL,
      api_key_encrypted text NOT NULL,
      api_key_last4 text NOT NULL,
      model text NOT NULL,
      monthly_budget numeric(20, 6) NOT NULL CHECK (monthly_budget >= 0),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE llm_settings`);
  }
}
