import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox for a team (issue 32, CONTRACT.md §18):
 *
 * - Search over what the customer and the business wrote: each thread message keeps a `search` tsvector, generated
 *   from its text, of its words accent-free as they are (the `simple` configuration: names, numbers, exact words, and
 *   prefixes while typing) and of their stems in the conversation's language (`search_config`: english, spanish,
 *   portuguese, french or german; `simple` while the language is unknown), both through `unaccent` so "garantia" finds
 *   "garantía". A GIN index on (tenant_id, search) (btree_gin) answers one tenant's words without reading another's
 *   (tools/bench/inbox-search.mjs measured the choices). `unaccent` is not immutable, as a generated column needs:
 *   `search_unaccent` pins its dictionary.
 * - The customer's own last message for the list's preview (`last_customer_message`), filled in from the threads.
 * - Where a conversation comes from (`source`): `playground` for the customers the dashboard's playground plays
 *   (`playground_customers`, registered by the gateway before it writes as one), `customer` otherwise.
 *
 * The backfills rewrite conversation_messages (the generated column, then each message's language): on a large
 * inbox, run it at a quiet time.
 */
export class InboxSearch1765670400000 implements MigrationInterface {
  name = 'InboxSearch1765670400000';

  async up(q: QueryRunner): Promise<void> {
    // In `public`, as crm-service's pg_trgm: one installation serves the database, whatever the schemas.
    await q.query(`CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin WITH SCHEMA public`);
    await q.query(`
      CREATE FUNCTION search_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`);

    await q.query(`
      ALTER TABLE conversation_messages
        ADD COLUMN search_config regconfig NOT NULL DEFAULT 'simple',
        ADD COLUMN search tsvector GENERATED ALWAYS AS (
          to_tsvector('simple'::regconfig, search_unaccent(text)) || to_tsvector(search_config, search_unaccent(text))) STORED`);
    await q.query(`
      UPDATE conversation_messages m
         SET search_config = (CASE c.skill_state->>'language'
               WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish' WHEN 'pt' THEN 'portuguese' WHEN 'fr' THEN 'french' ELSE 'german' END)::regconfig
        FROM conversations c
       WHERE c.id = m.conversation_id AND c.skill_state->>'language' IN ('en', 'es', 'pt', 'fr', 'de')`);
    await q.query(`CREATE INDEX conversation_messages_search ON conversation_messages USING gin (tenant_id, search)`);

    await q.query(`
      ALTER TABLE conversations
        ADD COLUMN last_customer_message jsonb,
        ADD COLUMN source text NOT NULL DEFAULT 'customer' CHECK (source IN ('customer', 'playground'))`);
    await q.query(`
      UPDATE conversations c
         SET last_customer_message = jsonb_build_object(
               'text', m.text, 'author', jsonb_build_object('type', 'customer'),
               'at', to_char(m.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        FROM (SELECT DISTINCT ON (conversation_id) conversation_id, text, at FROM conversation_messages
               WHERE role = 'customer' ORDER BY conversation_id, id DESC) m
       WHERE m.conversation_id = c.id`);

    await q.query(`
      CREATE TABLE playground_customers (
        tenant_id text NOT NULL,
        customer text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, customer)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE playground_customers`);
    await q.query(`ALTER TABLE conversations DROP COLUMN source, DROP COLUMN last_customer_message`);
    await q.query(`DROP INDEX conversation_messages_search`);
    await q.query(`ALTER TABLE conversation_messages DROP COLUMN search, DROP COLUMN search_config`);
    await q.query(`DROP FUNCTION search_unaccent(text)`);
  }
}
