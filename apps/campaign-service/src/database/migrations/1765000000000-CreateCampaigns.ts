import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns and their frozen recipient lists (CONTRACT.md §15). A recipient's `message_id` is derived from campaign and
 * contact, unique here and the idempotency key of its send in messaging-service. The counters live on the campaign
 * row and change only with a recipient's status transition, in the same transaction, so they stay exact.
 */
export class CreateCampaigns1765000000000 implements MigrationInterface {
  name = 'CreateCampaigns1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaigns (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        channel_id text,
        template jsonb NOT NULL,
        audience jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled')),
        schedule_at timestamptz,
        rate_per_second integer NOT NULL CHECK (rate_per_second > 0),
        status_reason text,
        audience_count integer NOT NULL DEFAULT 0,
        queued integer NOT NULL DEFAULT 0,
        sent integer NOT NULL DEFAULT 0,
        delivered integer NOT NULL DEFAULT 0,
        read integer NOT NULL DEFAULT 0,
        replied integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        skipped_opted_out integer NOT NULL DEFAULT 0,
        -- when the sender may hand over this running campaign's next batch (its pace)
        next_send_at timestamptz,
        completed_published boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX campaigns_by_tenant ON campaigns (tenant_id, id DESC)`);
    await q.query(`CREATE INDEX campaigns_scheduled ON campaigns (schedule_at) WHERE status = 'scheduled'`);
    await q.query(`CREATE INDEX campaigns_running ON campaigns (next_send_at) WHERE status = 'running'`);
    await q.query(`CREATE INDEX campaigns_unannounced ON campaigns (completed_at) WHERE status = 'completed' AND NOT completed_published`);
    await q.query(`
      CREATE TABLE campaign_recipients (
        campaign_id text NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        contact_id text NOT NULL,
        phone text NOT NULL,
        message_id text NOT NULL UNIQUE,
        -- the template filled for this contact (null when skipped)
        template jsonb,
        status text NOT NULL CHECK (status IN ('pending', 'queued', 'sent', 'delivered', 'read', 'failed', 'skipped_opted_out')),
        error jsonb,
        queued_at timestamptz,
        replied_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (campaign_id, contact_id),
        -- one message per number per campaign, even when two contacts share it
        UNIQUE (campaign_id, phone)
      )`);
    await q.query(`CREATE INDEX campaign_recipients_pending ON campaign_recipients (campaign_id, contact_id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX campaign_recipients_by_phone ON campaign_recipients (tenant_id, phone, queued_at) WHERE replied_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE campaign_recipients`);
    await q.query(`DROP TABLE campaigns`);
  }
}
