import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contacts' timelines (CONTRACT.md §14). An entry from an event names the customer's number (`customer`), one added by
 * hand or from a deal names the contact: the timeline reads both, so an entry whose event came before the contact
 * existed still shows. `source` (one per event fact) makes a redelivered event land on the entry it made.
 */
export class ContactActivities1765400000000 implements MigrationInterface {
  name = 'ContactActivities1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_activities (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        contact_id text,
        customer text,
        type text NOT NULL,
        direction text CHECK (direction IN ('in', 'out')),
        channel text,
        text text,
        ref_kind text,
        ref_id text,
        due_at timestamptz,
        source text,
        occurred_at timestamptz NOT NULL,
        CHECK (contact_id IS NOT NULL OR customer IS NOT NULL),
        UNIQUE (tenant_id, source)
      )`);
    await q.query(`CREATE INDEX contact_activities_by_contact ON contact_activities (tenant_id, contact_id, occurred_at DESC, id DESC) WHERE contact_id IS NOT NULL`);
    await q.query(`CREATE INDEX contact_activities_by_customer ON contact_activities (tenant_id, customer, occurred_at DESC, id DESC) WHERE customer IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_activities`);
  }
}
