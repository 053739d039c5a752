#!/usr/bin/env node
// The agent's in-process embedding model (apps/responder-service/src/semantics/sentence-embedder.ts), measured alone:
// no stack, no Kafka, one process, the model on one thread as the service runs it.
//
//   npm run bench -- embedding          builds dist/, then runs this
//   node tools/bench/embedding.mjs      after a build (node tools/dev/swc-build.mjs)
//
// Prints the model's load time and the process's RSS before and after, the time to embed one short customer question
// (200 of them, one call each, cache off: p50/p95/mean, and CPU per question), and the time to embed 1,500 passages of
// about 80 words (what a 100-page PDF gives) in batches of 32 and one at a time (the embedder's default). Not a test.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COMPILED = path.join(ROOT, 'dist/apps/responder-service/src/semantics/sentence-embedder.js');
const QUESTIONS = 200;
const PASSAGES = 1500;
const BATCH = 32;

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (n) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** Short questions as customers type them: 200 distinct ones from a few patterns. */
function questions() {
  const asks = ['do you have', 'how much is', 'can I book', 'is there', 'where is', 'when does', 'what about', 'can I get'];
  const things = [
    'parking nearby',
    'a day pass',
    'a class for beginners',
    'the kids club',
    'a birthday party',
    'shoe rental',
    'the sauna',
    'a student discount',
    'a gift card',
    'the opening time on sunday',
    'a refund for my membership',
    'wheelchair access',
    'a locker for my bag',
    'a private lesson',
    'the cafe',
    'a free trial',
    'bike repairs',
    'a monthly plan',
    'the climbing wall for kids',
    'a group booking',
    'a teeth cleaning',
    'an appointment on friday',
    'delivery to my address',
    'the price list',
    'weekend hours',
  ];
  const out = [];
  for (const thing of things) for (const ask of asks) out.push(`${ask} ${thing}?`);
  return out.slice(0, QUESTIONS);
}

/** Passages of about 80 words, like the chunks of a business's PDF: varied sentences, none repeated exactly. */
function passages() {
  const sentences = [
    'Our climbing gym is open from 7 am to 11 pm on weekdays and from 9 am to 9 pm on weekends and public holidays.',
    'A day pass costs 18 euros for adults and 12 euros for students and children under 14, shoes and harness not included.',
    'Beginners book an introduction course of two hours, in which an instructor explains the equipment, knots and belaying.',
    'Children from four years climb with a parent who has passed the belay check; the kids club meets on Saturday mornings.',
    'The car park behind the building is free for members, and the tram stop Oak Street is a three minute walk away.',
    'Rental shoes cost 4 euros, a harness 3 euros and chalk is sold at the counter, where you can also leave valuables.',
    'Memberships run monthly and can be cancelled with one month of notice; a paused membership keeps its price.',
    'Birthday parties include two hours of climbing, an instructor, all equipment and a table in the cafe for cake.',
    'Refunds are given for unused multi-visit cards within fourteen days of purchase when no visit has been used.',
    'The sauna and the yoga room are included in every membership and open one hour after the climbing hall opens.',
    'Our bike workshop repairs any make of bicycle; a standard service takes two working days and costs 59 euros.',
    'Rented bikes are returned to the drop box by the door when the shop is closed, with the key in the envelope.',
    'Group bookings for schools and companies are made by email at least two weeks ahead and paid by invoice.',
    'Please bring comfortable clothes; lockers are available with a one euro coin, which you get back afterwards.',
    'Gift cards are sold in the shop and online, are valid for three years and can be used for courses and passes.',
  ];
  let seed = 7;
  const next = () => (seed = (seed * 16807) % 2147483647);
  const out = [];
  for (let i = 0; i < PASSAGES; i++) {
    const words = [`Section ${i + 1}.`];
    while (words.join(' ').split(/\s+/).length < 75) words.push(sentences[next() % sentences.length]);
    out.push(words.join(' '));
  }
  return out;
}

async function main() {
  if (!existsSync(COMPILED)) throw new Error(`${path.relative(ROOT, COMPILED)} is missing: build first (node tools/dev/swc-build.mjs), or run \`npm run bench -- embedding\``);
  if (typeof globalThis.gc === 'function') globalThis.gc();
  const bare = process.memoryUsage().rss;
  const { SentenceEmbedder, defaultModelDir } = createRequire(import.meta.url)(COMPILED);
  const imported = process.memoryUsage().rss;

  let started = performance.now();
  const embedder = await SentenceEmbedder.load({ cacheSize: 0 });
  const loadMs = performance.now() - started;
  const loaded = process.memoryUsage().rss;

  const qs = questions();
  for (const q of qs.slice(0, 10)) await embedder.embed([q]); // warm the JIT of the pooling and tokeniser
  const times = [];
  let cpu = process.cpuUsage();
  for (const q of qs) {
    const t = performance.now();
    await embedder.embed([q]);
    times.push(performance.now() - t);
  }
  const queryCpu = cpuMs(cpu) / qs.length;
  times.sort((a, b) => a - b);
  const afterQueries = process.memoryUsage().rss;

  const texts = passages();
  const words = texts.reduce((n, t) => n + t.split(/\s+/).length, 0) / texts.length;
  const batched = await SentenceEmbedder.load({ cacheSize: 0, batchSize: BATCH });
  started = performance.now();
  cpu = process.cpuUsage();
  await batched.embed(texts);
  const batchMs = performance.now() - started;
  const batchCpu = cpuMs(cpu);
  await batched.release();

  started = performance.now();
  cpu = process.cpuUsage();
  await embedder.embed(texts);
  const singleMs = performance.now() - started;
  const singleCpu = cpuMs(cpu);
  const peak = process.memoryUsage().rss;
  await embedder.release();

  const cpus = os.cpus();
  const lines = [
    `embedding model: ${defaultModelDir()} (${embedder.dimensions} dimensions, one thread)`,
    `machine: ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    '',
    `model load:                 ${ms(loadMs)} (session, tokenizer, one warm-up run)`,
    `RSS:                        ${mb(bare)} bare, ${mb(imported)} with onnxruntime and the tokenizer loaded, ${mb(loaded)} after the model load (+${mb(loaded - imported)}), ${mb(afterQueries)} after the questions`,
    `one short question:         p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, mean ${ms(times.reduce((a, b) => a + b, 0) / times.length)}, max ${ms(times[times.length - 1])}; CPU ${ms(queryCpu)} per question (${qs.length} questions, one call each, cache off)`,
    `${PASSAGES} passages (~${Math.round(words)} words): ${ms(batchMs)} in batches of ${BATCH} (CPU ${ms(batchCpu)}, ${ms(batchMs / PASSAGES)} a passage); ${ms(singleMs)} one at a time, the default (CPU ${ms(singleCpu)}, ${ms(singleMs / PASSAGES)} a passage)`,
    `RSS at the end:             ${mb(peak)}`,
  ];
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err.message ?? err);
  process.exit(1);
});
