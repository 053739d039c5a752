import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox's SMS (Twilio Messages API) and email (SMTP sink) records (CONTRACT.md §17): what businesses sent and
 * what the played customers wrote, so a test reads back exactly what a customer received.
 */
export class CreateSmsAndEmail1764892800000 implements MigrationInterface {
  name = 'CreateSmsAndEmail1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sms_messages (
        sid text PRIMARY KEY,
        account_sid text NOT NULL,
        direction text NOT NULL CHECK (direction IN ('outbound-api', 'inbound')),
        "from" text NOT NULL,
        "to" text NOT NULL,
        body text NOT NULL,
        num_segments integer NOT NULL,
        status text NOT NULL,
        status_callback text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sms_messages_to ON sms_messages ("to", created_at DESC)`);
    await q.query(`
      CREATE TABLE emails (
        id bigserial PRIMARY KEY,
        envelope_from text,
        envelope_to text[] NOT NULL,
        "from" text,
        "to" text,
        subject text,
        text text,
        html text,
        message_id text,
        in_reply_to text,
        size integer NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE emails`);
    await q.query(`DROP TABLE sms_messages`);
  }
}
