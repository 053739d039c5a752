import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Statuses that arrive before their send is recorded, and send attempts whose outcome is unknown (issue 5). */
export class PendingStatusesAndSendAttempts1764288000000 implements MigrationInterface {
  name = 'PendingStatusesAndSendAttempts1764288000000';

  async up(q: QueryRunner): Promise<void> {
    // A status for a wamid no message carries yet: parked here (never retried in the consumer) and applied when the
    // message gets that wamid; one row per status, so redeliveries park once. Rows nobody claims expire.
    await q.query(`
      CREATE TABLE pending_statuses (
        channel_id text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        provider_message_id text NOT NULL,
        status text NOT NULL,
        at text NOT NULL,
        error jsonb,
        request_id text,
        parked_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (channel_id, provider_message_id, status)
      )`);
    await q.query(`CREATE INDEX pending_statuses_expiry ON pending_statuses (expires_at)`);

    // `claim_token` names the worker holding a row: a worker whose claim lapsed (and was taken over) cannot send it.
    // `attempt_started_at` is set while a provider call's outcome is unknown (in flight, timed out, or its worker died):
    // the message is not sent again until its status had time to arrive (it names the message, see SendAcceptance).
    // `request_id` is the request that caused the send, for log lines and the events of the send.
    await q.query(`ALTER TABLE send_queue ADD COLUMN claim_token uuid`);
    await q.query(`ALTER TABLE send_queue ADD COLUMN attempt_started_at timestamptz`);
    await q.query(`ALTER TABLE send_queue ADD COLUMN request_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE send_queue DROP COLUMN request_id`);
    await q.query(`ALTER TABLE send_queue DROP COLUMN attempt_started_at`);
    await q.query(`ALTER TABLE send_queue DROP COLUMN claim_token`);
    await q.query(`DROP TABLE pending_statuses`);
  }
}
