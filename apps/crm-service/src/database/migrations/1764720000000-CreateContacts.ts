import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contacts and companies (CONTRACT.md §14), and the outbox their events leave through.
 *
 * One contact per number and tenant is the database's rule (`contacts_tenant_phone`), so instances racing on the
 * first message of a number converge on one row by `INSERT … ON CONFLICT`. A contact's company is referenced with its
 * tenant, so no contact can point at another tenant's company. `q` searches `search_text` through a trigram index
 * (pg_trgm, in `public` so one installation serves the database, whatever the schemas).
 */
export class CreateContacts1764720000000 implements MigrationInterface {
  name = 'CreateContacts1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
    await q.query(`
      CREATE TABLE companies (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        domain text,
        attributes jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT companies_tenant_id UNIQUE (tenant_id, id)
      )`);
    await q.query(`CREATE INDEX companies_tenant_list ON companies (tenant_id, id DESC)`);
    await q.query(`
      CREATE TABLE contacts (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        phone text,
        email text,
        name text,
        company_id text,
        tags text[] NOT NULL DEFAULT '{}',
        attributes jsonb NOT NULL DEFAULT '{}',
        opted_out boolean NOT NULL DEFAULT false,
        -- when the customer last wrote STOP or START: an older opt change arriving late does not undo a newer one
        opted_out_changed_at timestamptz,
        search_text text GENERATED ALWAYS AS (lower(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, ''))) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT contacts_tenant_phone UNIQUE (tenant_id, phone),
        CONSTRAINT contacts_company FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id) ON DELETE SET NULL (company_id)
      )`);
    await q.query(`CREATE INDEX contacts_tenant_list ON contacts (tenant_id, id DESC)`);
    await q.query(`CREATE INDEX contacts_tenant_company ON contacts (tenant_id, company_id) WHERE company_id IS NOT NULL`);
    await q.query(`CREATE INDEX contacts_tenant_email ON contacts (tenant_id, lower(email)) WHERE email IS NOT NULL`);
    await q.query(`CREATE INDEX contacts_tags ON contacts USING gin (tags)`);
    await q.query(`CREATE INDEX contacts_search ON contacts USING gin (search_text public.gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE contact_leads (
        lead_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        contact_id text NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX contact_leads_contact ON contact_leads (contact_id)`);
    await q.query(`
      CREATE TABLE outbox (
        id bigserial PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbox`);
    await q.query(`DROP TABLE contact_leads`);
    await q.query(`DROP TABLE contacts`);
    await q.query(`DROP TABLE companies`);
  }
}
