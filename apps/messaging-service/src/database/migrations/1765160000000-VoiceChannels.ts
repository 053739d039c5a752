import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Voice channels (CONTRACT.md §17): a Twilio (or sandbox) number whose calls the agent answers. Like an SMS number, it
 * is connected to one tenant only, since an incoming call is attributed by the number called.
 */
export class VoiceChannels1765160000000 implements MigrationInterface {
  name = 'VoiceChannels1765160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels DROP CONSTRAINT channels_kind_check`);
    await q.query(`ALTER TABLE channels ADD CONSTRAINT channels_kind_check CHECK (kind IN ('whatsapp', 'sms', 'email', 'voice'))`);
    await q.query(`CREATE UNIQUE INDEX channels_voice_number ON channels (phone_number) WHERE kind = 'voice'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX channels_voice_number`);
    await q.query(`DELETE FROM channels WHERE kind = 'voice'`);
    await q.query(`ALTER TABLE channels DROP CONSTRAINT channels_kind_check`);
    await q.query(`ALTER TABLE channels ADD CONSTRAINT channels_kind_check CHECK (kind IN ('whatsapp', 'sms', 'email'))`);
  }
}
