import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marketing opt-outs (CONTRACT.md §12), per tenant and customer, as the last `contact.opted_out`/`contact.opted_in`
 * left them; and message templates (§13) per channel, with their provider review status.
 */
export class OptOutsAndTemplates1764547200000 implements MigrationInterface {
  name = 'OptOutsAndTemplates1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE opt_outs (
        tenant_id text NOT NULL,
        customer text NOT NULL,
        opted_out boolean NOT NULL,
        keyword text NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, customer)
      )`);
    await q.query(`
      CREATE TABLE templates (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        channel_id text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name text NOT NULL,
        language text NOT NULL,
        category text NOT NULL CHECK (category IN ('MARKETING', 'UTILITY', 'AUTHENTICATION')),
        components jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED')),
        reason text,
        provider_template_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (channel_id, name, language)
      )`);
    await q.query(`CREATE INDEX templates_tenant_created ON templates (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX templates_provider_id ON templates (provider_template_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE templates`);
    await q.query(`DROP TABLE opt_outs`);
  }
}
