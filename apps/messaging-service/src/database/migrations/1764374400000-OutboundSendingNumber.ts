import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound messages stored before intake wrote the sending number (issue 16) show `"from": ""` until a send attempt
 * pins their channel, and those that failed before any attempt (no channel yet, the 24-hour window) forever. Fill
 * them as intake now does: the number of the channel they were sent on, else the tenant's default channel's.
 */
export class OutboundSendingNumber1764374400000 implements MigrationInterface {
  name = 'OutboundSendingNumber1764374400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE messages m SET "from" = c.phone_number
      FROM channels c
      WHERE m.direction = 'outbound' AND m."from" IS NULL
        AND c.tenant_id = m.tenant_id AND CASE WHEN m.channel_id IS NULL THEN c.is_default ELSE c.id = m.channel_id END`);
  }

  async down(): Promise<void> {
    // Nothing to undo: the numbers written are the ones the records should have shown.
  }
}
