import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateResponder1763856000000 implements MigrationInterface {
  name = 'CreateResponder1763856000000';

  async up(q: QueryRunner): Promise<void> {
    // Read model of agent-service's agents, fed by agent.changed. A deleted agent stays as a tombstone
    // (deleted_at set) so a late or replayed change of that agent cannot bring it back.
    await q.query(`
      CREATE TABLE agents (
        tenant_id text NOT NULL,
        name text NOT NULL,
        agent_id text NOT NULL,
        version int NOT NULL,
        record jsonb NOT NULL,
        agent_created_at timestamptz NOT NULL,
        agent_updated_at timestamptz NOT NULL,
        deleted_at timestamptz,
        PRIMARY KEY (tenant_id, name)
      )`);
    await q.query(`CREATE INDEX agents_tenant_oldest_live ON agents (tenant_id, agent_created_at, agent_id) WHERE deleted_at IS NULL`);

    await q.query(`
      CREATE TABLE conversations (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        channel_id text NOT NULL,
        business_number text NOT NULL,
        customer text NOT NULL,
        state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'handed_off')),
        reply_count int NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL,
        last_message_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX conversations_latest ON conversations (tenant_id, business_number, customer, last_message_at DESC)`);

    await q.query(`
      CREATE TABLE conversation_messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        message_id text NOT NULL UNIQUE,
        role text NOT NULL CHECK (role IN ('customer', 'agent')),
        text text NOT NULL,
        at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX conversation_messages_recent ON conversation_messages (conversation_id, id DESC)`);

    // One row per inbound message handled: the exactly-once guard, and the events to (re)publish for it.
    await q.query(`
      CREATE TABLE processed_messages (
        inbound_message_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        conversation_id text NOT NULL,
        reply_message_id text,
        events jsonb NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE processed_messages`);
    await q.query(`DROP TABLE conversation_messages`);
    await q.query(`DROP TABLE conversations`);
    await q.query(`DROP TABLE agents`);
  }
}
