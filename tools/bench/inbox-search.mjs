#!/usr/bin/env node
// Inbox search (issue 32): which PostgreSQL search finds what customers wrote in five languages, and how fast.
//
//   npm run bench -- inbox-search            (or: node tools/bench/inbox-search.mjs [--messages 100000] [--tenants 40])
//
// Needs only the development PostgreSQL server (DATABASE_URL's, or 127.0.0.1): a throwaway database is made and dropped.
// Each variant is a table of the same thread messages (the responder's conversation_messages: tenant, conversation,
// text, the conversation's language) searched its own way:
//   like        text ILIKE '%word%', no index (what the inbox did over the last message only)
//   trigram     the same ILIKE through a pg_trgm GIN index on the unaccented text
//   simple      to_tsvector('simple', unaccent(text)): the words as written, accent-free; a prefix query
//   stemmed     simple + the words' stems in the conversation's language, both unaccented (what the responder runs)
//   stemmed, gin(search)  the same, its GIN index on the vector alone rather than (tenant_id, vector) with btree_gin
//   stemmed+    stemmed + the stems of the text as written (accents kept) as well
// It prints, per variant, how many of a set of word pairs in five languages (a word in a message, another form of it
// in the search box: plural, accent left out, a verb's other form) it finds, how many other messages of the set it
// finds with them, its index size, and the query time for one tenant of many at this size: p50 and p95 over words of
// every frequency. Not a test: it asserts nothing.
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({ options: { messages: { type: 'string', default: '100000' }, tenants: { type: 'string', default: '40' }, queries: { type: 'string', default: '60' } } });
const MESSAGES = Number(args.messages);
const TENANTS = Number(args.tenants);
const QUERIES = Number(args.queries);
const BATCH = 5000;
const CONFIGS = { en: 'english', es: 'spanish', pt: 'portuguese', fr: 'french', de: 'german' };
const LANGS = Object.keys(CONFIGS);

/** [the word in a message, the word typed in the search box] per language: other forms of the same word. */
const PAIRS = {
  en: [['batteries', 'battery'], ['battery', 'batteries'], ['repaired', 'repair'], ['repairing', 'repairs'], ['warranties', 'warranty'], ['wheels', 'wheel'], ['brakes', 'brake'], ['delivered', 'delivery'], ['chains', 'chain'], ['refunded', 'refund']],
  es: [['garantía', 'garantia'], ['garantías', 'garantia'], ['reparaciones', 'reparación'], ['reparación', 'reparaciones'], ['reparación', 'reparacion'], ['batería', 'baterias'], ['frenos', 'freno'], ['ruedas', 'rueda'], ['cadena', 'cadenas'], ['devolución', 'devoluciones']],
  pt: [['bateria', 'baterias'], ['manutenção', 'manutencao'], ['reparações', 'reparação'], ['reparação', 'reparacoes'], ['pneus', 'pneu'], ['freios', 'freio'], ['correntes', 'corrente'], ['garantia', 'garantias'], ['entregas', 'entrega'], ['reembolso', 'reembolsos']],
  fr: [['réparations', 'reparation'], ['réparé', 'réparer'], ['freins', 'frein'], ['pneus', 'pneu'], ['garanties', 'garantie'], ['vélos', 'velo'], ['livrée', 'livraison'], ['batteries', 'batterie'], ['chaînes', 'chaine'], ['remboursé', 'remboursement']],
  de: [['Bremsen', 'Bremse'], ['Fahrräder', 'Fahrrad'], ['Reparatur', 'Reparaturen'], ['Reifen', 'Reifen'], ['Garantie', 'Garantien'], ['Ketten', 'Kette'], ['Lieferung', 'Lieferungen'], ['Akkus', 'Akku'], ['Rückerstattung', 'Ruckerstattung'], ['repariert', 'reparieren']],
};

/** Words of ordinary chat per language, the bulk the searched words hide in. */
const FILLER = {
  en: 'hello hi thanks please when can i come by today tomorrow my bike the shop open closed price how much is it cost what time do you have need want order pick up there'.split(' '),
  es: 'hola gracias por favor cuándo puedo pasar hoy mañana mi bicicleta la tienda abierto cerrado precio cuánto cuesta qué hora tienen necesito quiero pedido recoger'.split(' '),
  pt: 'olá obrigado por favor quando posso passar hoje amanhã minha bicicleta loja aberto fechado preço quanto custa que horas vocês têm preciso quero pedido buscar'.split(' '),
  fr: 'bonjour merci svp quand puis je passer aujourd hui demain mon vélo la boutique ouvert fermé prix combien coûte quelle heure avez vous besoin veux commande récupérer'.split(' '),
  de: 'hallo danke bitte wann kann ich heute morgen vorbeikommen mein fahrrad der laden offen geschlossen preis wie viel kostet uhrzeit haben sie brauche möchte bestellung abholen'.split(' '),
};
/** Searched words across the frequency range: common chat words, rarer ones, names. */
const SEARCHED = ['price', 'tomorrow', 'precio', 'mañana', 'fahrrad', 'vélo', 'bicicleta', 'battery', 'garantia', 'bremse', 'reparation', 'warranty', 'nordmann', 'courier'];

const VARIANTS = {
  like: { column: null, index: null, where: (p) => `text ILIKE '%' || ${p} || '%'` },
  trigram: { column: null, index: `USING gin (search_unaccent(text) public.gin_trgm_ops)`, where: (p) => `search_unaccent(text) ILIKE '%' || search_unaccent(${p}) || '%'` },
  simple: {
    column: `to_tsvector('simple'::regconfig, search_unaccent(text))`,
    index: `USING gin (tenant_id, search)`,
    where: (p) => `search @@ to_tsquery('simple', quote_literal(coalesce(nullif(search_unaccent(${p}), ''), ${p})) || ':*')`,
  },
  stemmed: {
    column: `to_tsvector('simple'::regconfig, search_unaccent(text)) || to_tsvector(search_config, search_unaccent(text))`,
    index: `USING gin (tenant_id, search)`,
    where: (p) => `search @@ (to_tsquery('simple', quote_literal(coalesce(nullif(search_unaccent(${p}), ''), ${p})) || ':*') || ${Object.values(CONFIGS).map((c) => `plainto_tsquery('${c}', search_unaccent(${p}))`).join(' || ')})`,
  },
  // The same, indexed on the vector alone: one tenant's words are then picked out of every tenant's.
  'stemmed, gin(search)': {
    column: `to_tsvector('simple'::regconfig, search_unaccent(text)) || to_tsvector(search_config, search_unaccent(text))`,
    index: `USING gin (search)`,
    where: (p) => `search @@ (to_tsquery('simple', quote_literal(coalesce(nullif(search_unaccent(${p}), ''), ${p})) || ':*') || ${Object.values(CONFIGS).map((c) => `plainto_tsquery('${c}', search_unaccent(${p}))`).join(' || ')})`,
  },
  'stemmed+': {
    column: `to_tsvector('simple'::regconfig, search_unaccent(text)) || to_tsvector(search_config, search_unaccent(text)) || to_tsvector(search_config, text)`,
    index: `USING gin (tenant_id, search)`,
    where: (p) =>
      `search @@ (to_tsquery('simple', quote_literal(coalesce(nullif(search_unaccent(${p}), ''), ${p})) || ':*') || ${Object.values(CONFIGS)
        .flatMap((c) => [`plainto_tsquery('${c}', search_unaccent(${p}))`, `plainto_tsquery('${c}', ${p})`])
        .join(' || ')})`,
  },
};

const pick = (list) => list[randomInt(0, list.length)];
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const log = (message) => process.stderr.write(`${message}\n`);

/** A chat message in a language: filler, sometimes one of the pair words or a searched word. */
function message(lang) {
  const words = Array.from({ length: randomInt(5, 16) }, () => pick(FILLER[lang]));
  if (randomInt(0, 10) === 0) words.splice(randomInt(0, words.length), 0, pick(PAIRS[lang])[0]);
  if (randomInt(0, 200) === 0) words.push(pick(['Nordmann', 'courier']));
  return words.join(' ');
}

async function main() {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/parley');
  const name = `bench_inbox_search_${Date.now()}`;
  const admin = new pg.Client({ connectionString: new URL('/postgres', base).toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const db = new pg.Client({ connectionString: new URL(`/${name}`, base).toString() });
  await db.connect();
  try {
    await db.query(`CREATE EXTENSION unaccent; CREATE EXTENSION pg_trgm; CREATE EXTENSION btree_gin`);
    await db.query(`CREATE FUNCTION search_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$`);
    for (const [variant, v] of Object.entries(VARIANTS)) {
      await db.query(`CREATE TABLE "${variant}" (id bigserial PRIMARY KEY, tenant_id text NOT NULL, conversation_id text NOT NULL, text text NOT NULL,
        search_config regconfig NOT NULL DEFAULT 'simple'${v.column ? `, search tsvector GENERATED ALWAYS AS (${v.column}) STORED` : ''})`);
    }

    // The pairs, in a tenant of their own: each pair's message is its own conversation.
    const pairs = LANGS.flatMap((lang) => PAIRS[lang].map(([stored, typed], i) => ({ lang, stored, typed, conversation: `${lang}-${i}` })));
    // The bulk: MESSAGES messages of TENANTS tenants, conversations of ~10, each in one language.
    log(`[inbox-search] ${MESSAGES} messages of ${TENANTS} tenants in ${LANGS.length} languages, ${pairs.length} word pairs; loading…`);
    const rows = pairs.map((p) => ({ tenant: 'ten_pairs', conversation: p.conversation, text: `${pick(FILLER[p.lang])} ${p.stored} ${pick(FILLER[p.lang])}`, lang: p.lang }));
    for (let i = 0; i < MESSAGES; i++) {
      const conversation = Math.floor(i / 10);
      const lang = LANGS[conversation % LANGS.length];
      rows.push({ tenant: `ten_${conversation % TENANTS}`, conversation: `c${conversation}`, text: message(lang), lang });
    }
    const loadMs = {};
    for (const variant of Object.keys(VARIANTS)) {
      const started = Date.now();
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        await db.query(`INSERT INTO "${variant}" (tenant_id, conversation_id, text, search_config) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::regconfig[])`, [
          batch.map((r) => r.tenant),
          batch.map((r) => r.conversation),
          batch.map((r) => r.text),
          batch.map((r) => CONFIGS[r.lang]),
        ]);
      }
      if (VARIANTS[variant].index) await db.query(`CREATE INDEX ON "${variant}" ${VARIANTS[variant].index}`);
      await db.query(`ANALYZE "${variant}"`);
      loadMs[variant] = Date.now() - started;
    }

    const results = [];
    for (const [variant, v] of Object.entries(VARIANTS)) {
      // Recall: the typed form finds the stored one; other finds: messages of other pairs it brings along.
      let found = 0;
      let others = 0;
      const missed = [];
      for (const p of pairs) {
        const { rows: hits } = await db.query(`SELECT DISTINCT conversation_id FROM "${variant}" WHERE tenant_id = 'ten_pairs' AND ${v.where('$1')}`, [p.typed]);
        if (hits.some((h) => h.conversation_id === p.conversation)) found++;
        else missed.push(`${p.typed}→${p.stored}`);
        others += hits.filter((h) => !pairs.some((q) => q.conversation === h.conversation_id && q.stored.toLowerCase() === p.stored.toLowerCase())).length;
      }
      // Speed: the inbox's question, one tenant's conversations containing the word, at this size.
      const times = [];
      for (let i = 0; i < QUERIES; i++) {
        const word = SEARCHED[i % SEARCHED.length];
        const tenant = `ten_${randomInt(0, TENANTS)}`;
        const started = process.hrtime.bigint();
        await db.query(`SELECT DISTINCT conversation_id FROM "${variant}" WHERE tenant_id = $2 AND ${v.where('$1')} LIMIT 51`, [word, tenant]);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      times.sort((a, b) => a - b);
      const [{ size }] = (await db.query(`SELECT coalesce(sum(pg_relation_size(indexrelid)), 0)::bigint AS size FROM pg_index WHERE indrelid = '"${variant}"'::regclass AND NOT indisprimary`)).rows;
      const [{ table }] = (await db.query(`SELECT pg_table_size('"${variant}"')::bigint AS table`)).rows;
      results.push({ variant, found: `${found}/${pairs.length}`, others, p50: percentile(times, 50), p95: percentile(times, 95), index: Number(size), table: Number(table), loadMs: loadMs[variant], missed });
    }

    const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MB`;
    console.log(`\n| variant | pairs found | other finds | p50 | p95 | index | table | load |`);
    console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |`);
    for (const r of results) console.log(`| ${r.variant} | ${r.found} | ${r.others} | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${mb(r.index)} | ${mb(r.table)} | ${(r.loadMs / 1000).toFixed(1)} s |`);
    for (const r of results) if (r.missed.length) console.log(`\n${r.variant} missed: ${r.missed.join(', ')}`);
  } finally {
    await db.end();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
