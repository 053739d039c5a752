import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Canned replies (issue 32, CONTRACT.md §18): a tenant's ready answers, found by their shortcut (one per shortcut and
 * tenant) or by words of their text. A tenant has tens of them, not millions: the search reads one tenant's rows.
 */
export class CannedReplies1765756800000 implements MigrationInterface {
  name = 'CannedReplies1765756800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE canned_replies (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        shortcut text NOT NULL,
        text text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT canned_replies_shortcut UNIQUE (tenant_id, shortcut)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE canned_replies`);
  }
}
