#!/usr/bin/env node
// What the agent's sense of meaning costs (issue 31), the engine measured alone (no stack, one process):
//
//   npm run bench -- understanding      builds dist/, then runs this
//   node tools/bench/understanding.mjs  after a build (node tools/dev/swc-build.mjs)
//
// Prints: the model's load time and the RSS it adds; the time the deterministic engine takes per customer message,
// without the model and with it (each development-split case's first message, once, after one warm-up question per
// agent has built its indexes: p50/p95, and the p50 added); and the time to embed a 100-page PDF's passages as the
// responder does when the document arrives (250 passages of about 200 words, every view). Not a test.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist/apps/responder-service/src');
const require = createRequire(import.meta.url);
const PDF_PASSAGES = 250;
const PASSAGE_WORDS = 200;

const ms = (n) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  if (!existsSync(path.join(DIST, 'semantics/engine-meaning.js'))) {
    throw new Error('dist/apps/responder-service is missing: build first (node tools/dev/swc-build.mjs), or run `npm run bench -- understanding`');
  }
  const { loadFixtures } = require(path.join(DIST, 'evaluation/eval-fixtures.js'));
  const { DeterministicReplyEngine } = require(path.join(DIST, 'replies/deterministic-reply-engine.js'));
  const { embedPassages } = require(path.join(DIST, 'semantics/semantic-index.js'));
  const { documentPassageTitle } = require(path.join(DIST, 'knowledge/rank-knowledge.js'));
  const { engineMeaning } = require(path.join(DIST, 'semantics/engine-meaning.js'));

  if (typeof globalThis.gc === 'function') globalThis.gc();
  const before = process.memoryUsage().rss;
  let started = performance.now();
  const meaning = await engineMeaning();
  const loadMs = performance.now() - started;
  const loaded = process.memoryUsage().rss;

  const fixtures = loadFixtures(path.join(ROOT, 'tools/eval/development'));
  const request = (agent, text) => ({
    tenantId: 'ten_bench',
    agent: agent.agent,
    conversationHistory: [],
    firstReply: true,
    message: { text, type: 'text', contactName: null },
    customer: '+15550100100',
    state: {},
    now: new Date('2026-12-01T09:00:00Z'),
    calendar: { busy: () => Promise.resolve(new Set()) },
    documents: agent.documents,
  });
  const engines = { words: new DeterministicReplyEngine(null), meaning: new DeterministicReplyEngine(meaning) };
  // one question per agent builds its indexes (words and meaning) and the small-talk examples, as its first customer would
  for (const agent of fixtures.agents.values()) for (const engine of Object.values(engines)) await engine.reply(request(agent, 'hello, one question please'));
  const times = { words: [], meaning: [], wordsEn: [], meaningEn: [] };
  for (const c of fixtures.cases) {
    const agent = fixtures.agents.get(c.agent);
    for (const [name, engine] of Object.entries(engines)) {
      const t = performance.now();
      await engine.reply(request(agent, c.turns[0].customer));
      const took = performance.now() - t;
      times[name].push(took);
      // the model reads English: an English message is where it costs
      if (c.language === 'en') times[`${name}En`].push(took);
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);

  // A 100-page PDF: 250 passages of about 200 words (agent-service's chunks are 80–300), every view embedded.
  const sentences = [...fixtures.agents.values()].flatMap((a) => a.documents.flatMap((d) => d.text.split(/(?<=[.!?])\s+/))).filter((s) => s.split(/\s+/).length > 5);
  let seed = 11;
  const next = () => (seed = (seed * 16807) % 2147483647);
  const passages = Array.from({ length: PDF_PASSAGES }, (_, i) => {
    const words = [];
    while (words.join(' ').split(/\s+/).length < PASSAGE_WORDS) words.push(sentences[next() % sentences.length]);
    return { type: 'document', title: documentPassageTitle({ title: 'Handbook', headings: [`Chapter ${1 + (i % 20)}`] }), text: words.join(' ') };
  });
  started = performance.now();
  const cpu = process.cpuUsage();
  const sets = await embedPassages(passages, meaning.embedder);
  const pdfMs = performance.now() - started;
  const pdfCpu = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
  const views = sets.reduce((n, s) => n + s.size, 0);
  const peak = process.memoryUsage().rss;

  const p50 = (name) => percentile(times[name], 50);
  const cpus = os.cpus();
  console.log(
    [
      `understanding (issue 31) on ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, load average ${os.loadavg()[0].toFixed(1)}:`,
      `  model ${meaning.model} loaded in ${ms(loadMs)}; RSS ${mb(before)} -> ${mb(loaded)} (+${mb(loaded - before)}); peak ${mb(peak)}`,
      `  per customer message (${times.words.length} messages of the development split, engine alone):`,
      `    words only:   p50 ${ms(p50('words'))}, p95 ${ms(percentile(times.words, 95))}`,
      `    with meaning: p50 ${ms(p50('meaning'))}, p95 ${ms(percentile(times.meaning, 95))}`,
      `    added by the model at p50: ${ms(p50('meaning') - p50('words'))} (target ≤ 5 ms)`,
      `  English messages only (${times.wordsEn.length}; the model reads English): words p50 ${ms(p50('wordsEn'))}, with meaning p50 ${ms(p50('meaningEn'))}, p95 ${ms(percentile(times.meaningEn, 95))}; added at p50 ${ms(p50('meaningEn') - p50('wordsEn'))}`,
      `  a 100-page PDF (${PDF_PASSAGES} passages of ~${PASSAGE_WORDS} words, ${views} views): ${ms(pdfMs)} wall, ${ms(pdfCpu)} CPU (target ≤ 30 s)`,
    ].join('\n'),
  );
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
