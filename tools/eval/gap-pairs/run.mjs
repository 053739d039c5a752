#!/usr/bin/env node
/**
 * `npm run eval:gaps`: how knowledge gaps group customers' questions (issue 36), measured on pairs a person labelled
 * "one answer fits both" or not (tools/eval/gap-pairs/held-out.json, written by someone who had not read the grouping
 * code nor seen its threshold, in one commit; never used to choose SAME_GAP_COSINE or SAME_GAP_WORDS). For each pair the
 * first wording opens a gap and the second is placed as the gap worker places it (closestGap, with the engine's model
 * in English and stemmed words elsewhere). Prints, per language, how many same-need pairs were grouped (recall) and how
 * many different-need pairs were kept apart, and the merges of different needs (the costly error: an answer that
 * does not fit). Not a test: it prints.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, require } from '../register-ts.mjs';

const { closestGap, wordingKey } = require(path.join(ROOT, 'apps/responder-service/src/gaps/gap-grouping.ts'));
const { engineMeaning, MODEL_LANGUAGES } = require(path.join(ROOT, 'apps/responder-service/src/semantics/engine-meaning.ts'));
const file = process.argv[2] ?? path.join(ROOT, 'tools/eval/gap-pairs/held-out.json');
const pairs = JSON.parse(readFileSync(file, 'utf8'));
const meaning = await engineMeaning();

const rows = new Map();
const merged = [];
for (const pair of pairs) {
  const reads = MODEL_LANGUAGES.includes(pair.language);
  const [a, b] = reads ? await meaning.embedder.embed([pair.a, pair.b]) : [null, null];
  const gap = { id: 'gap_a', centroid: a, wordings: [wordingKey(pair.a)] };
  const grouped = closestGap({ text: pair.b, language: pair.language, vector: b }, [gap]) !== null;
  const row = rows.get(pair.language) ?? { same: 0, grouped: 0, different: 0, apart: 0 };
  if (pair.same) {
    row.same++;
    if (grouped) row.grouped++;
  } else {
    row.different++;
    if (!grouped) row.apart++;
    else merged.push(pair);
  }
  rows.set(pair.language, row);
}

const pct = (n, d) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(0)}%`);
console.log(`Gap grouping on ${path.relative(ROOT, file)} (${pairs.length} pairs)\n`);
console.log('| language | same need grouped | different needs kept apart |');
console.log('|---|---:|---:|');
const total = { same: 0, grouped: 0, different: 0, apart: 0 };
for (const [language, r] of [...rows].sort()) {
  for (const k of Object.keys(total)) total[k] += r[k];
  console.log(`| ${language} | ${r.grouped}/${r.same} (${pct(r.grouped, r.same)}) | ${r.apart}/${r.different} (${pct(r.apart, r.different)}) |`);
}
console.log(`| all | ${total.grouped}/${total.same} (${pct(total.grouped, total.same)}) | ${total.apart}/${total.different} (${pct(total.apart, total.different)}) |`);
console.log(`\n${merged.length} pairs of different needs grouped as one (the owner's one answer would not fit both).`);
