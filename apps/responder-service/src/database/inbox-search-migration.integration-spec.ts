import { runMigrations } from '@parley/service-kit';
import { createTestDatabase, type TestDatabase } from '@parley/testing';
import { Client } from 'pg';
import { termQuerySql } from '../conversations/inbox-search';
import { responderServiceDatabase } from './responder-service.database';
import { InboxSearch1765670400000 } from './migrations/1765670400000-InboxSearch';

/**
 * The InboxSearch migration (issue 32) on an inbox that existed before it: each message's words get its conversation's
 * language, the customer's last message is filled in for the preview, every conversation is a customer's; and it
 * goes back down. Real PostgreSQL.
 */
describe('responder-service migration InboxSearch on existing conversations', () => {
  let db: TestDatabase;
  let sql: Client;
  const before = { ...responderServiceDatabase, migrations: (responderServiceDatabase.migrations as unknown[]).filter((m) => m !== InboxSearch1765670400000) as typeof responderServiceDatabase.migrations };

  beforeAll(async () => {
    db = await createTestDatabase('inboxsearchmig');
    await runMigrations(db.url, before);
    sql = new Client({ connectionString: db.url, options: '-c search_path=responder' });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('fills in the language, the preview and the source, then searches the old messages', async () => {
    const conversation = (id: string, language: string | null) =>
      sql.query(
        `INSERT INTO conversations (id, tenant_id, channel_id, business_number, customer, state, skill_state, started_at, last_message_at, last_message)
         VALUES ($1, 'ten_mig', 'chn_01JCHANNEL0000000000000000', '+4930000001', $2, 'active', $3::jsonb, now(), now(), $4::jsonb)`,
        [id, `+1555000${id.slice(-4)}`, JSON.stringify(language ? { language } : {}), JSON.stringify({ text: 'Answer', author: { type: 'agent', name: 'support' }, at: '2026-01-01T10:00:05.000Z' })],
      );
    const message = (conversationId: string, messageId: string, role: string, text: string, at: string) =>
      sql.query(`INSERT INTO conversation_messages (conversation_id, tenant_id, message_id, role, text, at) VALUES ($1, 'ten_mig', $2, $3, $4, $5)`, [
        conversationId,
        messageId,
        role,
        text,
        at,
      ]);
    await conversation('cnv_es01', 'es');
    await message('cnv_es01', 'msg_es1', 'customer', '¿Cuánto cuestan las reparaciones?', '2026-01-01T10:00:00.000Z');
    await message('cnv_es01', 'msg_es2', 'customer', '¿Y la garantía?', '2026-01-01T10:00:03.000Z');
    await message('cnv_es01', 'msg_es3', 'agent', 'Answer', '2026-01-01T10:00:05.000Z');
    await conversation('cnv_xx01', null);
    await message('cnv_xx01', 'msg_xx1', 'agent', 'Hello from the shop', '2026-01-01T11:00:00.000Z');

    expect(await runMigrations(db.url, responderServiceDatabase)).toEqual(['InboxSearch1765670400000']);

    const configs = await sql.query(`SELECT message_id, search_config::text FROM conversation_messages ORDER BY message_id`);
    expect(configs.rows).toEqual([
      { message_id: 'msg_es1', search_config: 'spanish' },
      { message_id: 'msg_es2', search_config: 'spanish' },
      { message_id: 'msg_es3', search_config: 'spanish' },
      { message_id: 'msg_xx1', search_config: 'simple' },
    ]);
    const conversations = await sql.query(`SELECT id, source, last_customer_message FROM conversations ORDER BY id`);
    expect(conversations.rows).toEqual([
      { id: 'cnv_es01', source: 'customer', last_customer_message: { text: '¿Y la garantía?', author: { type: 'customer' }, at: '2026-01-01T10:00:03.000Z' } },
      { id: 'cnv_xx01', source: 'customer', last_customer_message: null },
    ]);
    // The old messages are searched as the inbox searches (inbox-search.ts): "garantias" is "garantía"'s Spanish stem.
    const search = async (term: string) =>
      (await sql.query(`SELECT message_id FROM conversation_messages WHERE tenant_id = 'ten_mig' AND search @@ ${termQuerySql('$1', term)} ORDER BY message_id`, [term])).rows;
    expect(await search('garantias')).toEqual([{ message_id: 'msg_es2' }]);
    expect(await search('reparacion')).toEqual([{ message_id: 'msg_es1' }]);
    expect(await search('shop')).toEqual([{ message_id: 'msg_xx1' }]);
  });

  it('goes back down', async () => {
    await sql.query(`SET search_path = responder`);
    const down = new InboxSearch1765670400000();
    await sql.query('BEGIN');
    await down.down({ query: (text: string) => sql.query(text) } as never);
    const left = await sql.query(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'responder'
          AND (column_name IN ('search', 'search_config', 'source', 'last_customer_message') OR table_name = 'playground_customers')`,
    );
    expect(left.rows).toEqual([]);
    expect((await sql.query(`SELECT count(*)::int AS n FROM conversation_messages`)).rows).toEqual([{ n: 4 }]);
    await sql.query('ROLLBACK');
  });
});
