import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each document's passages in the model's space (issue 31), embedded once when the document arrives: every view of
 * every passage (semantics/semantic-index.ts `passageViews`) as one int8 VectorSet, and the model that made them (a
 * document embedded by another model is embedded again when first read).
 */
export class PassageVectors1765584000000 implements MigrationInterface {
  name = 'PassageVectors1765584000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_documents ADD COLUMN vectors bytea, ADD COLUMN vectors_model text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_documents DROP COLUMN vectors, DROP COLUMN vectors_model`);
  }
}
