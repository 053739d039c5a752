import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tenant's secret iCalendar feed of its appointments (CONTRACT.md §14, Integrations): one random token per tenant,
 * replaced on rotation. Kept as is (not hashed) because `GET /api/v1/integrations/calendar` shows the same URL again.
 */
export class CalendarFeeds1764892800000 implements MigrationInterface {
  name = 'CalendarFeeds1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE calendar_feeds (
        tenant_id text PRIMARY KEY,
        token text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The feed reads a tenant's appointments by time.
    await q.query(`CREATE INDEX appointments_tenant_starts_at ON appointments (tenant_id, starts_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX appointments_tenant_starts_at`);
    await q.query(`DROP TABLE calendar_feeds`);
  }
}
