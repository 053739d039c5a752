import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge gaps (issue 36, CONTRACT.md §19): the customers' questions an agent could not answer, near-duplicates
 * grouped. A gap keeps the mean of its questions' sentence vectors (`centroid`, unit length, Float32; null where the
 * model does not read the language and wordings are compared instead), its distinct wordings with their counts, and
 * one occurrence per customer message (a message counts once, whatever is retried), which also says why (not known,
 * handed off, or a reply marked wrong) and in which conversation, so that a deleted contact's questions can be taken
 * out again. Feedback on agent replies is kept per reply.
 */
export class KnowledgeGaps1765929600000 implements MigrationInterface {
  name = 'KnowledgeGaps1765929600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_gaps (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        agent_name text NOT NULL,
        language text NOT NULL,
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed', 'dismissed')),
        count integer NOT NULL DEFAULT 0,
        centroid bytea,
        answer text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz
      )`);
    await q.query(`CREATE INDEX knowledge_gaps_by_agent ON knowledge_gaps (tenant_id, agent_name, state, last_seen_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE knowledge_gap_wordings (
        gap_id text NOT NULL REFERENCES knowledge_gaps(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        wording text NOT NULL,
        text text NOT NULL,
        count integer NOT NULL DEFAULT 1,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (gap_id, wording)
      )`);
    await q.query(`
      CREATE TABLE knowledge_gap_occurrences (
        tenant_id text NOT NULL,
        message_id text NOT NULL,
        gap_id text NOT NULL REFERENCES knowledge_gaps(id) ON DELETE CASCADE,
        conversation_id text,
        wording text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('not_known', 'handoff', 'marked_wrong')),
        reply text,
        at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, message_id)
      )`);
    await q.query(`CREATE INDEX knowledge_gap_occurrences_gap ON knowledge_gap_occurrences (gap_id)`);
    // a deleted contact's questions leave the gaps (contact erasure): found by their conversations
    await q.query(`CREATE INDEX knowledge_gap_occurrences_conversation ON knowledge_gap_occurrences (tenant_id, conversation_id)`);
    await q.query(`
      CREATE TABLE message_feedback (
        tenant_id text NOT NULL,
        message_id text NOT NULL,
        conversation_id text NOT NULL,
        verdict text NOT NULL CHECK (verdict IN ('right', 'wrong')),
        note text,
        actor jsonb NOT NULL,
        gap_id text,
        at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, message_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_feedback`);
    await q.query(`DROP TABLE knowledge_gap_occurrences`);
    await q.query(`DROP TABLE knowledge_gap_wordings`);
    await q.query(`DROP TABLE knowledge_gaps`);
  }
}
