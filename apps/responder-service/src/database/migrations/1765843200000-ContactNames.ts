import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The contact's name as the team wrote it (issue 32): crm-service owns contacts, and a name edited there (or taken
 * from a lead or an import) is the name the inbox shows and finds. `contact_names` keeps the latest per customer
 * (number or address) from `contact.created`/`contact.updated`; each conversation carries it (`contact_name`) so the
 * list reads and searches it without a join, and a new conversation takes it from there.
 */
export class ContactNames1765843200000 implements MigrationInterface {
  name = 'ContactNames1765843200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_names (
        tenant_id text NOT NULL,
        customer text NOT NULL,
        name text,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, customer)
      )`);
    await q.query(`ALTER TABLE conversations ADD COLUMN contact_name text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations DROP COLUMN contact_name`);
    await q.query(`DROP TABLE contact_names`);
  }
}
