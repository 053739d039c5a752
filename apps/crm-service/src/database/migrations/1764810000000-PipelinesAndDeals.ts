import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pipelines and deals (CONTRACT.md §14). A tenant's default pipeline is made on first use; one per tenant (a partial
 * unique index decides a race). Money is `numeric` without a fixed scale, so "1234567.89" reads back as written.
 */
export class PipelinesAndDeals1764810000000 implements MigrationInterface {
  name = 'PipelinesAndDeals1764810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pipelines (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        stages text[] NOT NULL CHECK (cardinality(stages) BETWEEN 1 AND 20),
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pipelines_tenant_id UNIQUE (tenant_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX pipelines_one_default ON pipelines (tenant_id) WHERE is_default`);
    await q.query(`
      CREATE TABLE deals (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        title text NOT NULL,
        -- a deal goes with its contact when the contact is erased (CONTRACT.md §14)
        contact_id text NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
        company_id text,
        pipeline_id text NOT NULL,
        stage text NOT NULL,
        amount numeric CHECK (amount >= 0),
        currency text CHECK (currency ~ '^[A-Z]{3}$'),
        owner text,
        -- the lead that opened it: one deal per lead, however often lead.captured arrives
        lead_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT deals_value_whole CHECK ((amount IS NULL) = (currency IS NULL)),
        CONSTRAINT deals_tenant_lead UNIQUE (tenant_id, lead_id),
        CONSTRAINT deals_pipeline FOREIGN KEY (tenant_id, pipeline_id) REFERENCES pipelines (tenant_id, id),
        CONSTRAINT deals_company FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id) ON DELETE SET NULL (company_id)
      )`);
    await q.query(`CREATE INDEX deals_tenant_list ON deals (tenant_id, id DESC)`);
    await q.query(`CREATE INDEX deals_contact ON deals (contact_id)`);
    await q.query(`CREATE INDEX deals_tenant_pipeline_stage ON deals (tenant_id, pipeline_id, stage)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deals`);
    await q.query(`DROP TABLE pipelines`);
  }
}
