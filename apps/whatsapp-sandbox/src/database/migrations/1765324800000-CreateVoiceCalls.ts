import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox's voice calls (CONTRACT.md §17): each call a played caller placed, and everything said on it in order
 * (the TwiML `<Say>`s the caller heard, what the caller said, a `<Dial>`), so a test reads back what the caller heard.
 */
export class CreateVoiceCalls1765324800000 implements MigrationInterface {
  name = 'CreateVoiceCalls1765324800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE voice_calls (
        sid text PRIMARY KEY,
        "from" text NOT NULL,
        "to" text NOT NULL,
        status text NOT NULL,
        gather_action text,
        dialled text,
        transcript jsonb NOT NULL DEFAULT '[]',
        started_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE voice_calls`);
  }
}
