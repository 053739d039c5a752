import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Message templates submitted through the Graph template routes, with the review outcome decided at submission. */
export class CreateTemplates1764547200000 implements MigrationInterface {
  name = 'CreateTemplates1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE templates (
        id text PRIMARY KEY,
        waba_id text NOT NULL,
        name text NOT NULL,
        language text NOT NULL,
        category text NOT NULL,
        components jsonb NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('APPROVED', 'REJECTED')),
        reason text,
        reviewed_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (waba_id, name, language)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE templates`);
  }
}
