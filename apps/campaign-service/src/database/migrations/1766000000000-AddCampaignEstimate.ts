import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A campaign's cost estimate from billing-service (`{amount, currency}`), recorded when it is started or refused for it. */
export class AddCampaignEstimate1766000000000 implements MigrationInterface {
  name = 'AddCampaignEstimate1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN estimate jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns DROP COLUMN estimate`);
  }
}
