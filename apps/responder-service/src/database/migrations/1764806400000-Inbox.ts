import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox (CONTRACT.md §12): conversations can be closed and assigned, count the customer messages no one has read,
 * know the contact's name and their last message; the thread keeps every message with its author (no longer pruned:
 * the reply engine reads only the newest turns), and notes sit beside it.
 */
export class Inbox1764806400000 implements MigrationInterface {
  name = 'Inbox1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations DROP CONSTRAINT conversations_state_check`);
    await q.query(`ALTER TABLE conversations ADD CONSTRAINT conversations_state_check CHECK (state IN ('active', 'handed_off', 'closed'))`);
    await q.query(`
      ALTER TABLE conversations
        ADD COLUMN assignee text,
        ADD COLUMN unread int NOT NULL DEFAULT 0,
        ADD COLUMN lead_name text,
        ADD COLUMN profile_name text,
        ADD COLUMN last_message jsonb`);

    await q.query(`ALTER TABLE conversation_messages DROP CONSTRAINT conversation_messages_role_check`);
    await q.query(`ALTER TABLE conversation_messages ADD CONSTRAINT conversation_messages_role_check CHECK (role IN ('customer', 'agent', 'member'))`);
    // {type: "agent", name} | {type: "member", id} | {type: "api"}; null for the customer's (and turns written before this).
    await q.query(`ALTER TABLE conversation_messages ADD COLUMN author jsonb`);

    await q.query(`
      CREATE TABLE conversation_notes (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        text text NOT NULL,
        author jsonb NOT NULL,
        at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX conversation_notes_thread ON conversation_notes (conversation_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE conversation_notes`);
    await q.query(`ALTER TABLE conversation_messages DROP COLUMN author`);
    await q.query(`DELETE FROM conversation_messages WHERE role = 'member'`);
    await q.query(`ALTER TABLE conversation_messages DROP CONSTRAINT conversation_messages_role_check`);
    await q.query(`ALTER TABLE conversation_messages ADD CONSTRAINT conversation_messages_role_check CHECK (role IN ('customer', 'agent'))`);
    await q.query(`ALTER TABLE conversations DROP COLUMN assignee, DROP COLUMN unread, DROP COLUMN lead_name, DROP COLUMN profile_name, DROP COLUMN last_message`);
    await q.query(`UPDATE conversations SET state = 'active' WHERE state = 'closed'`);
    await q.query(`ALTER TABLE conversations DROP CONSTRAINT conversations_state_check`);
    await q.query(`ALTER TABLE conversations ADD CONSTRAINT conversations_state_check CHECK (state IN ('active', 'handed_off'))`);
  }
}
