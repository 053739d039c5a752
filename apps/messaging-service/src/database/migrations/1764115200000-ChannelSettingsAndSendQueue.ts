import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Channel management (limits, 360dialog inbound tokens) and the customer-service window (issue 5). */
export class ChannelSettingsAndSendQueue1764115200000 implements MigrationInterface {
  name = 'ChannelSettingsAndSendQueue1764115200000';

  async up(q: QueryRunner): Promise<void> {
    // 360dialog numbers may be connected before their Graph id is known (the channel id in the URL stands in).
    await q.query(`ALTER TABLE channels ALTER COLUMN phone_number_id DROP NOT NULL`);
    await q.query(`ALTER TABLE channels ADD COLUMN send_limit_per_second int CHECK (send_limit_per_second > 0)`);
    // Only a SHA-256 of the 360dialog inbound token is kept: it is shown once and never needed in clear again.
    await q.query(`ALTER TABLE channels ADD COLUMN inbound_token_sha256 text`);
    // The two-step verification PIN embedded signup registered the number with (encrypted): re-registering needs it.
    await q.query(`ALTER TABLE channels ADD COLUMN registration_pin_encrypted text`);

    // When each customer last wrote to each number: the 24-hour customer-service window.
    await q.query(`
      CREATE TABLE customer_windows (
        channel_id text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        customer text NOT NULL,
        last_inbound_at timestamptz NOT NULL,
        PRIMARY KEY (channel_id, customer)
      )`);

    // The durable send queue: the outbound consumer only records and enqueues; workers send at each number's pace.
    // A row lives until its message is accepted or failed for good; `claimed_until` lets a crashed worker's claims
    // be taken again; `slot_at` is the send slot a row already took from the rate limiter (it comes due shortly before it).
    await q.query(`
      CREATE TABLE send_queue (
        message_id text PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        channel_id text,
        recipient text NOT NULL,
        due_at timestamptz NOT NULL,
        claimed_until timestamptz,
        slot_at timestamptz,
        seq bigint GENERATED ALWAYS AS IDENTITY
      )`);
    await q.query(`CREATE INDEX send_queue_due ON send_queue (due_at, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE send_queue`);
    await q.query(`DROP TABLE customer_windows`);
    await q.query(`ALTER TABLE channels DROP COLUMN registration_pin_encrypted`);
    await q.query(`ALTER TABLE channels DROP COLUMN inbound_token_sha256`);
    await q.query(`ALTER TABLE channels DROP COLUMN send_limit_per_second`);
  }
}
