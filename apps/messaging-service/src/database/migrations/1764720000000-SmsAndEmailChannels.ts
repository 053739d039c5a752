import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SMS and email channels (CONTRACT.md §17): a channel has a kind, and so does each message. A tenant has one default
 * per kind (a send on `sms` without `from` goes out from its default SMS number). An SMS number or email address is
 * connected to one tenant only: inbound webhooks and mail are attributed by it. Email messages keep their subject and
 * HTML alternative.
 */
export class SmsAndEmailChannels1764720000000 implements MigrationInterface {
  name = 'SmsAndEmailChannels1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels ADD COLUMN kind text NOT NULL DEFAULT 'whatsapp' CHECK (kind IN ('whatsapp', 'sms', 'email'))`);
    await q.query(`ALTER TABLE channels DROP CONSTRAINT channels_provider_check`);
    await q.query(`ALTER TABLE channels ADD CONSTRAINT channels_provider_check CHECK (provider IN ('meta', '360dialog', 'sandbox', 'twilio', 'smtp'))`);
    await q.query(`DROP INDEX channels_tenant_default`);
    await q.query(`CREATE UNIQUE INDEX channels_tenant_kind_default ON channels (tenant_id, kind) WHERE is_default`);
    await q.query(`CREATE UNIQUE INDEX channels_sms_email_address ON channels (kind, phone_number) WHERE kind IN ('sms', 'email')`);
    await q.query(`ALTER TABLE messages ADD COLUMN channel text NOT NULL DEFAULT 'whatsapp', ADD COLUMN subject text, ADD COLUMN html text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN channel, DROP COLUMN subject, DROP COLUMN html`);
    await q.query(`DROP INDEX channels_sms_email_address`);
    await q.query(`DROP INDEX channels_tenant_kind_default`);
    await q.query(`CREATE UNIQUE INDEX channels_tenant_default ON channels (tenant_id) WHERE is_default`);
    await q.query(`ALTER TABLE channels DROP COLUMN kind`);
    await q.query(`ALTER TABLE channels DROP CONSTRAINT channels_provider_check`);
    await q.query(`ALTER TABLE channels ADD CONSTRAINT channels_provider_check CHECK (provider IN ('meta', '360dialog', 'sandbox'))`);
  }
}
