import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSandbox1764028800000 implements MigrationInterface {
  name = 'CreateSandbox1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE phone_numbers (
        phone_number_id text PRIMARY KEY,
        phone_number text NOT NULL UNIQUE,
        waba_id text NOT NULL,
        verified_name text NOT NULL,
        block_slot int UNIQUE,
        registered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE messages (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        phone_number_id text NOT NULL REFERENCES phone_numbers(phone_number_id),
        business_number text NOT NULL,
        customer_number text NOT NULL,
        type text NOT NULL,
        body text,
        template jsonb,
        context_message_id text,
        biz_opaque_callback_data text,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX messages_direction_created ON messages (direction, created_at, seq)`);
    await q.query(`CREATE INDEX messages_customer ON messages (customer_number, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE messages`);
    await q.query(`DROP TABLE phone_numbers`);
  }
}
