import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a deal is expected to close (issue 32): a calendar date, no time of day or zone, as salespeople forecast it;
 * null until someone says.
 */
export class DealExpectedClose1766300000000 implements MigrationInterface {
  name = 'DealExpectedClose1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE deals ADD COLUMN expected_close_date date`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE deals DROP COLUMN expected_close_date`);
  }
}
