import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateChannelsAndMessages1763856000000 implements MigrationInterface {
  name = 'CreateChannelsAndMessages1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channels (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        provider text NOT NULL CHECK (provider IN ('meta', '360dialog', 'sandbox')),
        phone_number text NOT NULL,
        phone_number_id text NOT NULL UNIQUE,
        waba_id text,
        credentials_encrypted text NOT NULL,
        agent text,
        is_default boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'connected' CHECK (status IN ('connected', 'disconnected')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX channels_tenant ON channels (tenant_id, id DESC)`);
    await q.query(`CREATE INDEX channels_tenant_number ON channels (tenant_id, phone_number)`);
    // At most one default channel per tenant.
    await q.query(`CREATE UNIQUE INDEX channels_tenant_default ON channels (tenant_id) WHERE is_default`);

    await q.query(`
      CREATE TABLE messages (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        tenant_id text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        channel_id text REFERENCES channels(id) ON DELETE SET NULL,
        "from" text,
        "to" text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        template jsonb,
        status text NOT NULL,
        status_history jsonb NOT NULL,
        error jsonb,
        provider_message_id text,
        send_attempts int NOT NULL DEFAULT 0,
        announced_statuses int NOT NULL DEFAULT 0,
        published boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Providers redeliver: one row per provider message on a number (inbound dedupe, status lookup by wamid).
    await q.query(`CREATE UNIQUE INDEX messages_channel_provider_id ON messages (channel_id, provider_message_id)`);
    await q.query(`CREATE INDEX messages_tenant_newest ON messages (tenant_id, seq DESC)`);
    await q.query(`CREATE INDEX messages_tenant_direction_newest ON messages (tenant_id, direction, seq DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE messages`);
    await q.query(`DROP TABLE channels`);
  }
}
