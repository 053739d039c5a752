import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge gaps off the reply's hot path: a reply that did not answer writes only its question here, keyed by the
 * customer message (so a message is queued once), in the reply's own statement; the gaps worker groups it after the
 * commit (GapWorker) and deletes it in the transaction that counts it. The row goes with its conversation, so a contact
 * erased before their question was grouped leaves nothing to group.
 */
export class PendingGapOccurrences1766188800000 implements MigrationInterface {
  name = 'PendingGapOccurrences1766188800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_gap_pending (
        tenant_id text NOT NULL,
        message_id text NOT NULL,
        agent_name text NOT NULL,
        conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        question text NOT NULL,
        language text NOT NULL,
        customer text,
        reason text NOT NULL CHECK (reason IN ('not_known', 'handoff', 'marked_wrong')),
        reply text,
        at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, message_id)
      )`);
    // the worker claims the oldest first; a conversation's deletion finds its rows
    await q.query(`CREATE INDEX knowledge_gap_pending_queue ON knowledge_gap_pending (at, message_id)`);
    await q.query(`CREATE INDEX knowledge_gap_pending_conversation ON knowledge_gap_pending (conversation_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE knowledge_gap_pending`);
  }
}
