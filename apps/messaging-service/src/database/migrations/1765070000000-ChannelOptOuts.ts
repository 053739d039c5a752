import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Opt-outs of one channel (CONTRACT.md §17): an SMS STOP stops every message from the tenant's SMS numbers to that
 * number, as carriers require, until START; `opt_outs` stays the WhatsApp marketing opt-out. `message_id` is the
 * keyword message that made the change: a redelivered webhook of it changes nothing (and is not confirmed twice).
 */
export class ChannelOptOuts1765070000000 implements MigrationInterface {
  name = 'ChannelOptOuts1765070000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channel_opt_outs (
        tenant_id text NOT NULL,
        channel text NOT NULL,
        customer text NOT NULL,
        opted_out boolean NOT NULL,
        keyword text NOT NULL,
        message_id text NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, channel, customer)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE channel_opt_outs`);
  }
}
