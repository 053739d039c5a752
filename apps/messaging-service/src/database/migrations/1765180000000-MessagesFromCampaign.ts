import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether an outbound message is a campaign's, from its `message.outbound` record's `campaign` header, so that its
 * `message.status` records carry it and campaign-service skips every other message's statuses unread (issue 33). Null
 * for the messages from before: their statuses carry no header and are read by everyone, as before.
 */
export class MessagesFromCampaign1765180000000 implements MigrationInterface {
  name = 'MessagesFromCampaign1765180000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN from_campaign boolean`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN from_campaign`);
  }
}
