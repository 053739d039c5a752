#!/usr/bin/env node
// The agent improvement loop's cost (issue 36), measured in process against real PostgreSQL (no stack, no Kafka):
//
//   npm run bench -- agent-loop      builds dist/, then runs this
//   node tools/bench/agent-loop.mjs  after a build (node tools/dev/swc-build.mjs)
//
// A throwaway database (DATABASE_URL's server, or 127.0.0.1:5432) gets the responder's migrations
// (responderServiceDatabase); the built responder's own classes run over it with the real embedding model
// (all-MiniLM-L6-v2 from .models/, `node tools/models/models.mjs fetch`). The database is dropped at the end.
//
// 1. Knowledge-gap grouping. One agent already has 10,000 logged questions it could not answer (85% English, 15%
//    Spanish), grouped in about 1,800 open gaps of 1–20 questions each (few asked often, most once or twice; each gap
//    a question about a dental service asked in up to five phrasings, with greetings and thanks around them; the English
//    gaps' centroids are the mean of their wordings' real vectors, the Spanish ones have none, as the model reads
//    English only), seeded straight into knowledge_gaps, knowledge_gap_wordings and knowledge_gap_occurrences.
//    Then questions are queued in knowledge_gap_pending as a reply queues them and placed by GapWorker.placeBatch
//    (claim, GapPlacer: embed, agent lock, counted?, the open gaps read, grouping, one write; agent.gap_opened in the
//    outbox; commit): one question at a time (English, Spanish), and batches of 100 (85 English, 15 Spanish, the
//    worker's BATCH). Most ask what an open gap asks in a new phrasing, some something new. Printed: wall time
//    p50/p95/max, CPU ms of this process, the statements sent (countStatements, BEGIN and COMMIT included), the open
//    gaps read and their size (ids, centroids, wordings as the driver hands them over), and where the time went.
// 2. An agent's test set run. A fixture agent of the development split (bloom-dental, English; its documents stored
//    through AgentDocumentsService as document.changed stores them, vectors included) gets 200 test cases: the
//    customer messages of its development cases (expectations from theirs) and then other English development
//    messages (expected: it does not know). A new version (one FAQ added) queues a run; TestRunWorker claims it and runs
//    it as it does (runOne: the set against this version, then against the previous one, through
//    RepliesService.firstReplyOf and the deterministic engine with the model; the outcome written with
//    agent.tests_completed). The previous version answered one message before (its indexes built, as its live
//    traffic would have). Printed: time in all, CPU ms, statements, and per case p50/p95/max per version.
//
// Not a test: it asserts nothing. Options: --singles N (40), --batches N (6), --questions N (10000).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist/apps/responder-service/src');
const require = createRequire(import.meta.url);
const { values: args } = parseArgs({ options: { singles: { type: 'string', default: '40' }, batches: { type: 'string', default: '6' }, questions: { type: 'string', default: '10000' } } });
const SINGLES = Number(args.singles);
const BATCHES = Number(args.batches);
const QUESTIONS = Number(args.questions);
const SPANISH_SHARE = 0.15;
const TENANT = 'ten_bench_loop';
const AGENT = 'bloom-dental';
const CASES = 200;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const f = (n) => (n === undefined || n === null || Number.isNaN(n) ? '–' : n >= 100 ? n.toFixed(0) : n.toFixed(1));
const log = (m) => process.stderr.write(`${m}\n`);

// A deterministic generator: the same data every run.
let seed = 36;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const pick = (list) => list[Math.floor(rand() * list.length)];
/** A phrasing of an ask: the first most often, as customers ask the usual way. */
const phrasing = (variants) => variants[Math.min(variants.length - 1, Math.floor(variants.length * rand() ** 1.6))];

const EN_ASKS = [
  ['Do you offer {x}?', 'Do you do {x}?', 'Is {x} something you offer?', 'Can I get {x} at your clinic?', 'Are you able to do {x}?'],
  ['How much does {x} cost?', 'What is the price of {x}?', 'How much is {x}?', 'What do you charge for {x}?', 'Price for {x}?'],
  ['Is {x} covered by my insurance?', 'Does insurance pay for {x}?', 'Will my dental plan cover {x}?', 'Is {x} covered?'],
  ['Do you do {x} for children?', 'Can kids get {x}?', 'Is {x} available for my son?', 'Do you offer {x} to children?'],
  ['How long does {x} take?', 'How long is an appointment for {x}?', 'How much time does {x} need?'],
  ['Can I book {x} on a Saturday?', 'Are you open on weekends for {x}?', 'Can I come in on Saturday for {x}?'],
  ['Does {x} hurt?', 'Is {x} painful?', 'Will {x} be painful?'],
  ['Can I pay for {x} in installments?', 'Do you have a payment plan for {x}?', 'Can I spread the cost of {x}?'],
  ['What should I do before {x}?', 'How do I prepare for {x}?', 'Anything I need to do before {x}?'],
  ['Is {x} safe during pregnancy?', 'Can I have {x} while pregnant?', "I'm pregnant, is {x} ok?"],
  ['Who does {x} at your practice?', 'Which dentist does {x}?', 'Is there a specialist for {x}?'],
  ['Do you have a discount on {x}?', 'Any offers on {x} this month?', 'Is there a student discount for {x}?'],
];
const EN_SUBJECTS = `teeth whitening|Invisalign|clear aligners|metal braces|ceramic braces|dental implants|a root canal|porcelain veneers|composite veneers|a crown|a bridge|full dentures|partial dentures|a deep cleaning|fluoride treatment|sealants|a night guard|a sports mouthguard|wisdom tooth removal|gum surgery|a bone graft|IV sedation|laughing gas|a panoramic X-ray|a 3D scan|tooth bonding|tooth contouring|replacing an old filling|amalgam removal|bad breath treatment|TMJ treatment|a snoring appliance|a sleep apnea device|a gum graft|a frenectomy|a tongue tie release|a checkup|an emergency visit|fixing a chipped tooth|a cracked tooth|a knocked out tooth|sensitivity treatment|a cavity check|pulling a baby tooth|a space maintainer|a new retainer|whitening trays|a whitening top-up|laser whitening|a smile makeover|gummy smile treatment|Botox for jaw pain|a second opinion|a cleaning for seniors|a home visit|an oral cancer screening|a fissure sealant|a tooth extraction|a surgical extraction|an apicoectomy|a sinus lift|All-on-4 implants|implant-supported dentures|a denture reline|a denture repair|a dental bridge repair|an inlay|an onlay|a temporary crown|a same-day crown|a zirconia crown|a gold crown|tooth jewellery|a lingual brace|a palate expander|headgear|an orthodontic consultation|teeth straightening for adults|a scale and polish|an airflow polish|periodontal maintenance|a gum disease treatment|antibiotics after an extraction|a dry socket|a mouth ulcer|a cold sore|a jaw X-ray|a bite adjustment|a mouth guard for grinding|children's first visit|a teething check|a lip tie release|a nervous patient appointment|a hypnotherapy session|a dental phobia consultation|an emergency after hours|a broken denture|a loose crown|a lost filling|a toothache|a swollen gum|a wisdom tooth infection|a dental abscess|a pulpotomy|a pulp cap|a silver diamine treatment|a tooth-coloured filling|a glass ionomer filling|a porcelain inlay|a resin infiltration|a microabrasion|an enamel treatment|a teeth grinding assessment|a saliva test|a bacteria test|a DNA test for gum disease|a bite splint|a Michigan splint|an occlusal analysis|a digital smile design|a mock-up for veneers|an implant consultation|an implant crown|an implant cleaning|a peri-implantitis treatment|a laser gum treatment|a crown lengthening|a gum lift|a gum contouring|a black triangle fix|a diastema closure|a gap between front teeth|a tooth-coloured crown|a baby tooth filling|a milk tooth crown|a stainless steel crown|nitrous for kids|general anaesthetic|a hospital referral|a sedation consultation|a dental certificate|a sick note|a referral letter|a copy of my X-rays|a treatment plan|a cost estimate|a dental passport|an orthodontic retainer check|a post-braces whitening|a hygienist visit`.split('|');
const ES_ASKS = [
  ['¿Ofrecen {x}?', '¿Hacen {x}?', '¿Se puede hacer {x} en su clínica?', 'Quisiera saber si hacen {x}'],
  ['¿Cuánto cuesta {x}?', '¿Qué precio tiene {x}?', 'Precio de {x}?', '¿Cuánto cobran por {x}?'],
  ['¿El seguro cubre {x}?', '¿Mi seguro paga {x}?', '¿{x} está cubierto por el seguro?'],
  ['¿Hacen {x} a niños?', '¿Mi hijo puede hacerse {x}?', '¿{x} para niños?'],
  ['¿Cuánto dura {x}?', '¿Cuánto tiempo lleva {x}?', '¿{x} tarda mucho?'],
  ['¿Duele {x}?', '¿{x} es doloroso?', '¿Me va a doler {x}?'],
];
const ES_SUBJECTS = `el blanqueamiento dental|la ortodoncia invisible|los brackets metálicos|los brackets de cerámica|los implantes dentales|una endodoncia|las carillas de porcelana|las carillas de composite|una corona|un puente|la dentadura completa|una prótesis parcial|una limpieza profunda|el flúor|los selladores|una férula de descarga|un protector bucal|la extracción de las muelas del juicio|la cirugía de encías|un injerto óseo|la sedación|una radiografía panorámica|un escáner 3D|un empaste|cambiar un empaste viejo|el tratamiento del mal aliento|el tratamiento de la ATM|una revisión|una urgencia|arreglar un diente roto|un diente flojo|la sensibilidad dental|sacar un diente de leche|un retenedor nuevo|un diseño de sonrisa|la sonrisa gingival|una segunda opinión|una visita a domicilio|una incrustación|una corona provisional|una corona de zirconio|un elevación de seno|los implantes All-on-4|reparar la dentadura|una gingivectomía|un curetaje|el tratamiento de periodontitis|un absceso|un dolor de muelas|un presupuesto|un certificado dental|una copia de mis radiografías|una ortodoncia para adultos|un expansor de paladar|la primera visita de mi hijo`.split('|');
/** Subjects no seeded gap asks about: questions that open gaps of their own. */
const NEW_EN = `a gift voucher for a cleaning|teeth whitening for dogs|dental tourism packages|a tooth gem|gold teeth grills|a dental spa day|a smile selfie review|a video consultation|dental care on a cruise|a mouthwash subscription|charcoal toothpaste|an electric toothbrush sale|a loyalty card|a family membership plan|a corporate dental plan|a school screening visit|a talk at my company|a volunteer program|an internship for dental students|a job as a receptionist`.split('|');
const NEW_ES = `un bono regalo|una suscripción de cepillos|un plan familiar|un trabajo de recepcionista|una charla en el colegio|un convenio con mi empresa`.split('|');
const SEED_PREFIX = { en: ['', '', 'Hi, ', 'Hello! ', 'Quick question: ', 'Good morning, '], es: ['', '', 'Hola, ', 'Buenas, ', 'Una pregunta: '] };
const SEED_SUFFIX = { en: ['', '', ' Thanks', ' thank you!', ' please'], es: ['', '', ' Gracias', ' por favor'] };
const NEW_PREFIX = { en: ['Hey, ', 'Sorry to bother you, ', 'One more thing: ', 'Hi there! ', 'Good afternoon. '], es: ['Oye, ', 'Perdón, ', 'Otra cosa: ', 'Buenas tardes. '] };
const NEW_SUFFIX = { en: [' :)', ' Cheers', '', ' Many thanks'], es: [' :)', ' Saludos', ''] };
const fill = (template, x) => {
  const text = template.replace('{x}', x);
  return text[0].toUpperCase() + text.slice(1);
};
const lower = (text) => (text.length > 1 && /^[A-ZÁÉÍÓÚ¿]/.test(text) ? text[0].toLowerCase() + text.slice(1) : text);

async function main() {
  if (!existsSync(path.join(DIST, 'gaps/gap.worker.js'))) throw new Error('dist/apps/responder-service is missing or old: build first (node tools/dev/swc-build.mjs), or run `npm run bench -- agent-loop`');
  const pg = require('pg');
  const kit = require(path.join(ROOT, 'dist/node_modules/@parley/service-kit'));
  const { newId } = require(path.join(ROOT, 'dist/node_modules/@parley/contracts'));
  const { DataSource } = require('typeorm');
  const { Logger } = require('@nestjs/common');
  Logger.overrideLogger(['error']);
  const { responderServiceDatabase } = require(path.join(DIST, 'database/responder-service.database.js'));
  const { engineMeaning } = require(path.join(DIST, 'semantics/engine-meaning.js'));
  const { GapsStore } = require(path.join(DIST, 'gaps/gaps.store.js'));
  const { GapPlacer } = require(path.join(DIST, 'gaps/gap-placer.js'));
  const { GapWorker } = require(path.join(DIST, 'gaps/gap.worker.js'));
  const { wordingKey, closestGap } = require(path.join(DIST, 'gaps/gap-grouping.js'));
  const { loadFixtures } = require(path.join(DIST, 'evaluation/eval-fixtures.js'));
  const { DeterministicReplyEngine } = require(path.join(DIST, 'replies/deterministic-reply-engine.js'));
  const { RepliesService } = require(path.join(DIST, 'replies/replies.service.js'));
  const { AgentDocumentsStore } = require(path.join(DIST, 'documents/agent-documents.store.js'));
  const { AgentDocumentsService } = require(path.join(DIST, 'documents/agent-documents.service.js'));
  const { AppointmentsStore } = require(path.join(DIST, 'appointments/appointments.store.js'));
  const { AgentTestsStore } = require(path.join(DIST, 'agent-tests/agent-tests.store.js'));
  const { AgentTestsService } = require(path.join(DIST, 'agent-tests/agent-tests.service.js'));
  const { TestRunWorker } = require(path.join(DIST, 'agent-tests/test-run.worker.js'));

  const cpus = os.cpus();
  const loadAtStart = os.loadavg();
  const startedAt = Date.now();
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/parley');
  const name = `bench_agent_loop_${Date.now().toString(36)}`;
  const url = new URL(`/${name}`, base).toString();
  const admin = new pg.Client({ connectionString: new URL('/postgres', base).toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  let db = null;
  let sql = null;
  try {
    await kit.runMigrations(url, responderServiceDatabase);
    db = new DataSource(kit.dataSourceOptions(url, responderServiceDatabase));
    await db.initialize();
    sql = new pg.Client({ connectionString: url, options: `-c search_path=${responderServiceDatabase.schema}` });
    await sql.connect();
    const [{ version: pgVersion }] = (await sql.query('SHOW server_version')).rows.map((r) => ({ version: r.server_version }));
    let t = performance.now();
    const meaning = await engineMeaning();
    const modelMs = performance.now() - t;

    // ---- 1. knowledge gaps: 10,000 logged questions in ~2,000 open gaps ----
    t = performance.now();
    const seeded = await seedGaps({ sql, meaning, newId, wordingKey });
    await sql.query('ANALYZE');
    const seedMs = performance.now() - t;
    log(`agent-loop: seeded ${seeded.questions} questions in ${seeded.gaps.en + seeded.gaps.es} gaps (${seeded.wordings} wordings) in ${(seedMs / 1000).toFixed(1)} s`);

    const phases = {};
    const reads = [];
    const store = new GapsStore(db);
    for (const method of ['claimPending', 'lockAgent', 'counted', 'candidates', 'apply']) {
      const original = store[method].bind(store);
      store[method] = async (...a) => {
        const began = performance.now();
        const result = await original(...a);
        phases[method] = (phases[method] ?? 0) + performance.now() - began;
        if (method === 'candidates') reads.push({ rows: result.length, bytes: result.reduce((n, r) => n + Buffer.byteLength(r.id) + 4 + (r.centroid ? r.centroid.byteLength : 0) + r.wordings.reduce((m, w) => m + Buffer.byteLength(w), 0), 0) });
        return result;
      };
    }
    const timedEmbedder = Object.create(meaning.embedder);
    timedEmbedder.embed = async (texts) => {
      const began = performance.now();
      const vectors = await meaning.embedder.embed(texts);
      phases.embed = (phases.embed ?? 0) + performance.now() - began;
      return vectors;
    };
    const placer = new GapPlacer(store, { ...meaning, embedder: timedEmbedder });
    // the worker's transaction, timed: BEGIN until its work starts, and the COMMIT after its work ends
    const timedDb = {
      transaction: async (work) => {
        const began = performance.now();
        let ended = 0;
        const result = await db.transaction(async (tx) => {
          phases.begin = (phases.begin ?? 0) + performance.now() - began;
          const r = await work(tx);
          ended = performance.now();
          return r;
        });
        phases.commit = (phases.commit ?? 0) + performance.now() - ended;
        return result;
      },
    };
    const worker = new GapWorker(timedDb, store, placer, { wake() {} });
    const conversations = [];
    for (let i = 0; i < 20; i++) {
      const id = newId('cnv');
      await sql.query(
        `INSERT INTO conversations (id, tenant_id, channel_id, business_number, customer, started_at, last_message_at) VALUES ($1, $2, 'chn_bench', '+15550100000', $3, now(), now())`,
        [id, TENANT, `+1555020${String(i).padStart(4, '0')}`],
      );
      conversations.push(id);
    }
    const asked = new Set(seeded.texts);
    const question = (language) => {
      for (;;) {
        const fresh = rand() < 0.25;
        const x = fresh ? pick(language === 'en' ? NEW_EN : NEW_ES) : pick(language === 'en' ? EN_SUBJECTS : ES_SUBJECTS);
        const text = `${pick(NEW_PREFIX[language])}${lower(fill(pick(pick(language === 'en' ? EN_ASKS : ES_ASKS)), x))}${pick(NEW_SUFFIX[language])}`;
        if (!asked.has(text)) {
          asked.add(text);
          return text;
        }
      }
    };
    const queue = async (languages) => {
      const rows = languages.map((language, i) => ({ language, text: question(language), messageId: newId('msg'), conversation: conversations[i % conversations.length] }));
      await sql.query(
        `INSERT INTO knowledge_gap_pending (tenant_id, message_id, agent_name, conversation_id, question, language, customer, reason, reply, at)
         SELECT $1, m, $2, c, q, l, '+15550200000', 'not_known', 'I am not sure about that; let me ask the team.', now() FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS u(m, c, q, l)`,
        [TENANT, AGENT, rows.map((r) => r.messageId), rows.map((r) => r.conversation), rows.map((r) => r.text), rows.map((r) => r.language)],
      );
    };
    const place = async (languages) => {
      await queue(languages);
      for (const k of Object.keys(phases)) delete phases[k];
      reads.length = 0;
      const cpu = process.cpuUsage();
      const began = performance.now();
      let claimed = 0;
      const statements = await kit.countStatements(async () => {
        claimed = await worker.placeBatch();
      });
      const ms = performance.now() - began;
      const used = process.cpuUsage(cpu);
      if (claimed !== languages.length) throw new Error(`placeBatch claimed ${claimed} of ${languages.length}`);
      return { ms, cpu: (used.user + used.system) / 1000, statements, phases: { ...phases }, reads: [...reads] };
    };
    const gapsBefore = Number((await sql.query(`SELECT count(*) FROM knowledge_gaps`)).rows[0].count);
    // one warm-up placement each way (JIT, the pool's connections, the first statements' plans)
    await place(['en']);
    await place(['es']);
    const singles = { en: [], es: [] };
    for (let i = 0; i < SINGLES; i++) {
      const language = i % 4 === 3 ? 'es' : 'en';
      singles[language].push(await place([language]));
    }
    const batchLanguages = Array.from({ length: 100 }, (_, i) => (i % 20 < 3 ? 'es' : 'en'));
    const batches = [];
    for (let i = 0; i < BATCHES; i++) batches.push(await place(batchLanguages));
    // closestGap alone over the open gaps a question is compared with (pure computation, no database)
    const grouping = {};
    await db.transaction(async (tx) => {
      for (const language of ['en', 'es']) {
        const open = await store.candidates(tx, TENANT, AGENT, language);
        const questions = Array.from({ length: 20 }, () => question(language));
        const vectors = language === 'en' ? await meaning.embedder.embed(questions) : questions.map(() => null);
        const times = [];
        for (const [i, text] of questions.entries()) {
          const began = performance.now();
          closestGap({ text, language, vector: vectors[i] }, open);
          times.push(performance.now() - began);
        }
        times.sort((a, b) => a - b);
        grouping[language] = { gaps: open.length, wordings: open.reduce((n, g) => n + g.wordings.length, 0), p50: percentile(times, 50), max: times[times.length - 1] };
      }
    });
    // the open-gaps read on the server alone (its SQL as GapsStore.candidates sends it), and the same rows read raw over
    // the driver without the wordings or without the centroids: where the read's time goes
    const CANDIDATES_SQL = (columns) => `SELECT ${columns}
         FROM knowledge_gaps g
        WHERE g.tenant_id = $1 AND g.agent_name = $2 AND g.language = $3 AND g.state = 'open'
        ORDER BY g.last_seen_at DESC LIMIT 1000`;
    const WORDINGS = `(SELECT array_agg(w.wording) FROM knowledge_gap_wordings w WHERE w.gap_id = g.id) AS wordings`;
    const readTimes = { server: [], full: [], noCentroid: [], noWordings: [] };
    for (let i = 0; i < 7; i++) {
      const [plan] = (await sql.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${CANDIDATES_SQL(`g.id, g.centroid, g.count, ${WORDINGS}`)}`, [TENANT, AGENT, 'en'])).rows[0]['QUERY PLAN'];
      readTimes.server.push(plan['Execution Time']);
      for (const [key, columns] of [['full', `g.id, g.centroid, g.count, ${WORDINGS}`], ['noCentroid', `g.id, g.count, ${WORDINGS}`], ['noWordings', 'g.id, g.centroid, g.count']]) {
        const began = performance.now();
        await sql.query(CANDIDATES_SQL(columns), [TENANT, AGENT, 'en']);
        readTimes[key].push(performance.now() - began);
      }
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const gapsAfter = Number((await sql.query(`SELECT count(*) FROM knowledge_gaps`)).rows[0].count);
    const placedQuestions = 2 + SINGLES + BATCHES * 100;

    // ---- 2. an agent's test set of 200 cases, run against a new version and the previous one ----
    const fixtures = loadFixtures(path.join(ROOT, 'tools/eval/development'));
    const fixture = fixtures.agents.get(AGENT);
    const v1 = { ...fixture.agent, id: 'agt_bench_loop', version: 1 };
    const v2 = {
      ...v1,
      version: 2,
      faqs: [...v1.faqs, { question: 'Do you offer teeth whitening?', answer: 'Yes: in-chair whitening takes about an hour and costs $350; take-home trays are $220.' }],
      updated_at: new Date().toISOString(),
    };
    const documentsStore = new AgentDocumentsStore(db);
    // (agents, test store, queued: what a document change also does, queue a run of the live agent's set; none here)
    const documents = new AgentDocumentsService(documentsStore, meaning, { liveAgent: async () => null }, null, { notify() {} });
    const byDocument = new Map();
    for (const p of fixture.documents) {
      if (!byDocument.has(p.documentId)) byDocument.set(p.documentId, { title: p.title, passages: [] });
      byDocument.get(p.documentId).passages.push({ id: p.id, headings: p.headings, text: p.text });
    }
    for (const [documentId, d] of byDocument) {
      await documents.applyChange({ data: { tenant_id: TENANT, document_id: documentId, agent_id: v1.id, agent_name: AGENT, title: d.title, passages: d.passages } });
    }
    const engine = new DeterministicReplyEngine(meaning);
    const appointments = new AppointmentsStore(db, null);
    let calendarReads = 0;
    const calendar = appointments.calendar.bind(appointments);
    appointments.calendar = (...a) => {
      const c = calendar(...a);
      return { busy: (...b) => (calendarReads++, c.busy(...b)) };
    };
    const replies = new RepliesService(db, null, null, engine, null, null, appointments, null, documents, null, null, null);
    const perCase = { 1: [], 2: [] };
    const slowest = [];
    const firstReplyOf = replies.firstReplyOf.bind(replies);
    replies.firstReplyOf = async (tenantId, agent, text, from) => {
      const began = performance.now();
      const reply = await firstReplyOf(tenantId, agent, text, from);
      perCase[agent.version]?.push(performance.now() - began);
      slowest.push({ version: agent.version, ms: performance.now() - began, text });
      return reply;
    };
    const testsStore = new AgentTestsStore(db);
    const tests = new AgentTestsService(testsStore, null, replies, null);
    const set = testCases(fixtures, AGENT);
    for (const c of set) await testsStore.create(TENANT, newId('tst'), AGENT, c.message, c.expect);
    // the previous version was live: its first customer built its indexes
    await replies.firstReplyOf(TENANT, v1, 'hello, one question please', '+15550100100');
    perCase[1].length = 0;
    slowest.length = 0;
    calendarReads = 0;
    if (!(await testsStore.queueRun(TENANT, newId('run'), v2, v1, `version:${v2.version}`))) throw new Error('no test run queued');
    const runner = new TestRunWorker(db, testsStore, tests, { wake() {} }, { onQueued() {} });
    const cpu = process.cpuUsage();
    const began = performance.now();
    let run = null;
    const runStatements = await kit.countStatements(async () => {
      const claimed = await testsStore.claim(runner.owner, 120);
      if (!claimed) throw new Error('no test run to claim');
      await runner.runOne(claimed);
    });
    const runMs = performance.now() - began;
    const runUsed = process.cpuUsage(cpu);
    run = await testsStore.findRun(TENANT, AGENT, 2);
    slowest.sort((a, b) => b.ms - a.ms);
    log(`agent-loop: slowest cases: ${slowest.slice(0, 6).map((c) => `v${c.version} ${f(c.ms)} ms ${JSON.stringify(c.text.slice(0, 60))}`).join('; ')}`);
    const runCpu = (runUsed.user + runUsed.system) / 1000;
    if (run?.status !== 'completed') throw new Error(`the run did not complete: ${JSON.stringify(run)?.slice(0, 200)}`);

    // ---- the table ----
    const rows = [];
    const stat = (list, key) => {
      const sorted = list.map(key).sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] };
    };
    const where = (list) => {
      const sum = {};
      for (const r of list) for (const [k, v] of Object.entries(r.phases)) sum[k] = (sum[k] ?? 0) + v;
      const wall = list.reduce((n, r) => n + r.ms, 0) / list.length;
      const mean = Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, v / list.length]));
      const named = { embed: 'embed', begin: 'BEGIN', claimPending: 'claim', lockAgent: 'lock', counted: 'counted?', candidates: 'open gaps read', apply: 'write', commit: 'COMMIT' };
      const known = Object.values(mean).reduce((n, v) => n + v, 0);
      return [...Object.entries(named).filter(([k]) => mean[k] !== undefined).map(([k, label]) => `${label} ${f(mean[k])}`), `grouping and the rest ${f(wall - known)}`].join(', ');
    };
    const readText = (list) => {
      const r = list.flatMap((x) => x.reads);
      const rowsRead = r.reduce((n, x) => n + x.rows, 0) / list.length;
      const bytes = r.reduce((n, x) => n + x.bytes, 0) / list.length;
      return `${rowsRead.toFixed(0)} gaps, ${(bytes / 1024).toFixed(0)} KiB`;
    };
    const gapRow = (label, list) => {
      if (list.length === 0) return;
      const w = stat(list, (r) => r.ms);
      const c = stat(list, (r) => r.cpu);
      const s = stat(list, (r) => r.statements);
      rows.push([label, list.length, f(w.p50), f(w.p95), f(w.max), f(c.p50), s.p50 === s.max ? String(s.p50) : `${s.p50}–${s.max}`, readText(list), `mean ms: ${where(list)}`]);
    };
    gapRow('place 1 question, English', singles.en);
    gapRow('place 1 question, Spanish', singles.es);
    gapRow('place a batch of 100 (85 en, 15 es)', batches);
    for (const version of [2, 1]) {
      const w = stat(perCase[version].map((ms) => ({ ms })), (r) => r.ms);
      rows.push([`test set, v${version}${version === 2 ? ' (this version)' : ' (previous)'}: per case`, perCase[version].length, f(w.p50), f(w.p95), f(w.max), '', '', '', `${f(perCase[version].reduce((a, b) => a + b, 0))} ms for the ${perCase[version].length}; first case ${f(perCase[version][0])} ms`]);
    }
    rows.push(['test set run (claim, v2, v1, write)', 1, f(runMs), '', '', f(runCpu), String(runStatements), '', `${run.passed} passed, ${run.failed} failed; fixed ${run.fixed.length}, broken ${run.broken.length}; ${calendarReads} of the statements are the booking skill's calendar reads`]);

    const head = ['measured', 'n', 'p50 ms', 'p95 ms', 'max ms', 'CPU ms (p50)', 'statements', 'open gaps read', 'note'];
    const enCases = set.filter((c) => c.language === 'en').length;
    console.log(
      [
        `agent-loop (issue 36) on ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, Node ${process.version}, PostgreSQL ${pgVersion}; load average at the start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
        `  in process, no stack; model ${meaning.model} loaded in ${f(modelMs)} ms; a throwaway database with the responder's migrations`,
        `  gaps: one agent with ${seeded.questions} logged questions (${seeded.byLanguage.en} English, ${seeded.byLanguage.es} Spanish) in ${seeded.gaps.en + seeded.gaps.es} open gaps (${seeded.gaps.en} en, ${seeded.gaps.es} es; 1–20 questions, median ${seeded.medianCount}; ${seeded.wordings} wordings), seeded in ${(seedMs / 1000).toFixed(1)} s;`,
        `        ${placedQuestions} more placed through GapWorker.placeBatch (${gapsAfter - gapsBefore} opened a gap of their own); each reads at most 1,000 open gaps of its language`,
        `        closestGap alone (no database), per question: English ${f(grouping.en.p50)} ms p50 over ${grouping.en.gaps} gaps (cosines), Spanish ${f(grouping.es.p50)} ms p50 (max ${f(grouping.es.max)}) over ${grouping.es.gaps} gaps' ${grouping.es.wordings} wordings (word overlap)`,
        `        the English open-gaps read (1,000 gaps), median of 7: ${f(median(readTimes.server))} ms executing on the server; over the driver ${f(median(readTimes.full))} ms, without the centroids ${f(median(readTimes.noCentroid))} ms, without the wordings ${f(median(readTimes.noWordings))} ms`,
        `  test set: ${AGENT} (${fixture.documents.length} passages, ${v1.faqs.length} → ${v2.faqs.length} FAQs), ${set.length} cases (${enCases} English), run by TestRunWorker.runOne against v2 then v1`,
        '',
        `| ${head.join(' | ')} |`,
        `| ${head.map((h, i) => (i === 0 || i >= 7 ? '---' : '--:')).join(' | ')} |`,
        ...rows.map((r) => `| ${r.join(' | ')} |`),
        '',
        `  ${((Date.now() - startedAt) / 1000).toFixed(0)} s in all`,
      ].join('\n'),
    );
  } finally {
    await sql?.end().catch(() => {});
    await db?.destroy().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err) => log(`agent-loop: could not drop ${name}: ${err.message}`));
    await admin.end();
  }
}

/** 10,000 (QUESTIONS) questions of one agent in open gaps, written as the placer would have left them. */
async function seedGaps({ sql, meaning, newId, wordingKey }) {
  const now = Date.now();
  const DAY = 86_400_000;
  const topics = {
    en: EN_ASKS.flatMap((ask, a) => EN_SUBJECTS.map((x) => ({ ask: a, x }))),
    es: ES_ASKS.flatMap((ask, a) => ES_SUBJECTS.map((x) => ({ ask: a, x }))),
  };
  for (const list of Object.values(topics)) list.sort(() => rand() - 0.5);
  const gaps = [];
  const byLanguage = { en: 0, es: 0 };
  const target = { es: Math.round(QUESTIONS * SPANISH_SHARE), en: QUESTIONS - Math.round(QUESTIONS * SPANISH_SHARE) };
  for (const language of ['en', 'es']) {
    const asks = language === 'en' ? EN_ASKS : ES_ASKS;
    while (byLanguage[language] < target[language]) {
      const topic = topics[language].pop();
      if (!topic) throw new Error(`not enough ${language} topics for ${target[language]} questions`);
      // 1–20 questions, mean ~5: a few asked often, most once or twice
      const count = Math.min(target[language] - byLanguage[language], 20, 1 + Math.floor(20 * rand() ** 3));
      byLanguage[language] += count;
      const lastSeen = now - Math.floor(rand() * 90 * DAY);
      const span = Math.floor(rand() * 30 * DAY);
      const wordings = new Map();
      const occurrences = [];
      for (let i = 0; i < count; i++) {
        const text = `${pick(SEED_PREFIX[language])}${(() => {
          const body = fill(phrasing(asks[topic.ask]), topic.x);
          return rand() < 0.5 ? body : lower(body);
        })()}${pick(SEED_SUFFIX[language])}`.trim();
        const key = wordingKey(text);
        const at = new Date(i === 0 ? lastSeen : lastSeen - Math.floor(rand() * span));
        const w = wordings.get(key);
        if (w) {
          w.count += 1;
          if (at < w.firstSeenAt) w.firstSeenAt = at;
        } else wordings.set(key, { text, count: 1, firstSeenAt: at });
        occurrences.push({ messageId: newId('msg'), wording: key, at });
      }
      gaps.push({ id: newId('gap'), language, count, wordings, occurrences, lastSeen: new Date(lastSeen), created: new Date(Math.min(...occurrences.map((o) => o.at.getTime()))) });
    }
  }
  // English centroids: the normalised mean of the wordings' vectors, weighted by their counts (as mergedCentroid grows it)
  const english = gaps.filter((g) => g.language === 'en');
  const texts = english.flatMap((g) => [...g.wordings.values()].map((w) => w.text));
  const vectors = await meaning.embedder.embed(texts);
  let next = 0;
  for (const g of english) {
    let sum = null;
    for (const w of g.wordings.values()) {
      const v = vectors[next++];
      sum ??= new Float32Array(v.length);
      for (let i = 0; i < v.length; i++) sum[i] += v[i] * w.count;
    }
    const norm = Math.sqrt(sum.reduce((n, x) => n + x * x, 0)) || 1;
    g.centroid = Buffer.from(sum.map((x) => x / norm).buffer);
  }
  const chunks = (list, size) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
  for (const part of chunks(gaps, 1000)) {
    await sql.query(
      `INSERT INTO knowledge_gaps (id, tenant_id, agent_name, language, count, centroid, created_at, last_seen_at)
       SELECT u.id, $1, $2, u.language, u.count, u.centroid, u.created_at, u.last_seen_at
         FROM unnest($3::text[], $4::text[], $5::int[], $6::bytea[], $7::timestamptz[], $8::timestamptz[]) AS u(id, language, count, centroid, created_at, last_seen_at)`,
      [TENANT, AGENT, part.map((g) => g.id), part.map((g) => g.language), part.map((g) => g.count), part.map((g) => g.centroid ?? null), part.map((g) => g.created), part.map((g) => g.lastSeen)],
    );
  }
  const wordingRows = gaps.flatMap((g) => [...g.wordings.entries()].map(([key, w]) => ({ gap: g.id, key, ...w })));
  for (const part of chunks(wordingRows, 5000)) {
    await sql.query(
      `INSERT INTO knowledge_gap_wordings (gap_id, tenant_id, wording, text, count, first_seen_at)
       SELECT u.gap_id, $1, u.wording, u.text, u.count, u.first_seen_at FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[]) AS u(gap_id, wording, text, count, first_seen_at)`,
      [TENANT, part.map((w) => w.gap), part.map((w) => w.key), part.map((w) => w.text), part.map((w) => w.count), part.map((w) => w.firstSeenAt)],
    );
  }
  const occurrenceRows = gaps.flatMap((g) => g.occurrences.map((o) => ({ gap: g.id, ...o })));
  for (const part of chunks(occurrenceRows, 5000)) {
    await sql.query(
      `INSERT INTO knowledge_gap_occurrences (tenant_id, message_id, gap_id, conversation_id, wording, reason, reply, at)
       SELECT $1, u.message_id, u.gap_id, 'cnv_bench_history', u.wording, 'not_known', 'I am not sure about that; let me ask the team.', u.at
         FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS u(message_id, gap_id, wording, at)`,
      [TENANT, part.map((o) => o.messageId), part.map((o) => o.gap), part.map((o) => o.wording), part.map((o) => o.at)],
    );
  }
  const counts = gaps.map((g) => g.count).sort((a, b) => a - b);
  return {
    questions: occurrenceRows.length,
    byLanguage,
    gaps: { en: english.length, es: gaps.length - english.length },
    wordings: wordingRows.length,
    medianCount: percentile(counts, 50),
    texts: wordingRows.map((w) => w.text),
  };
}

/** 200 test cases for `agent`: its development cases' messages (expectations from theirs), then other English messages. */
function testCases(fixtures, agent) {
  const seen = new Set();
  const own = [];
  const others = [];
  for (const c of fixtures.cases) {
    for (const turn of c.turns) {
      const message = turn.customer.trim();
      if (!message || seen.has(message)) continue;
      seen.add(message);
      if (c.agent === agent) {
        const e = turn.expect;
        const expect = e.unknown ? { no_answer: true } : e.handoff ? { handoff: true } : e.includes?.[0] ? { contains: e.includes[0] } : e.includes_any?.[0] ? { contains: e.includes_any[0] } : { no_answer: false };
        own.push({ message, expect, language: c.language });
      } else others.push({ message, expect: { no_answer: true }, language: c.language });
    }
  }
  others.sort((a, b) => (a.language === 'en' ? 0 : 1) - (b.language === 'en' ? 0 : 1));
  return [...own, ...others].slice(0, CASES);
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
