#!/usr/bin/env node
/**
 * `npm run eval`: the scripted agent evaluation (CONTRACT.md §11, tools/eval/README.md). Runs both splits of
 * tools/eval through the deterministic reply engine in this process (the TypeScript sources, compiled on load with swc,
 * as the unit tests are): first the held-out split, which no threshold, synonym or rule was chosen against and which the
 * targets judge, then the development split the engine is tuned on. Prints each split's share right, confident-wrong
 * count and area × language table, writes docs/agent-eval.md, and exits 1 when the held-out split misses a target.
 *
 *   npm run eval                       # both splits, the development split's wrong turns listed
 *   npm run eval -- --quiet            # the totals and tables only
 *   npm run eval -- --split development  # one split
 *   npm run eval -- --words-only       # without the model (the engine as it was before it had one)
 *
 * The held-out split's wrong turns are never listed, here or in docs/agent-eval.md (only counted): reading them is how a
 * split stops being held out.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, require } from './register-ts.mjs';

const SPLITS = [
  {
    name: 'Held-out',
    dir: 'tools/eval/held-out',
    judged: true,
    about:
      'Ten businesses and their customers written in one commit (22fbd8c) by someone who did not read the engine or run it; ' +
      'never used to choose a threshold, synonym or rule (tools/eval/held-out/README.md). The targets apply here.',
  },
  {
    name: 'Development',
    dir: 'tools/eval/development',
    judged: false,
    about: 'The cases the engine is tuned on (tools/eval/development): shown for information; a score here is not evidence.',
  },
];

const only = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : null;
const quiet = process.argv.includes('--quiet');
const { runEval, markdownReport, splitSection, missedTargets, pct } = require(path.join(ROOT, 'apps/responder-service/src/evaluation/agent-eval.ts'));
const { engineMeaning } = require(path.join(ROOT, 'apps/responder-service/src/semantics/engine-meaning.ts'));
const meaning = process.argv.includes('--words-only') ? null : await engineMeaning();

const reported = [];
for (const split of SPLITS.filter((s) => !only || s.name.toLowerCase() === only.toLowerCase() || s.dir.endsWith(only))) {
  const started = performance.now();
  const report = await runEval(path.join(ROOT, split.dir), meaning);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  reported.push({ ...split, report });
  if (!quiet && !split.judged) {
    for (const c of report.cases.filter((x) => !x.right)) {
      for (const t of c.turns.filter((x) => x.failures.length > 0)) {
        console.log(`✗ ${c.id} (${c.area}, ${c.language}): "${t.customer}"\n    → ${JSON.stringify(t.reply)}\n    ${t.failures.join('; ')}${t.confidentWrong ? '  [CONFIDENT-WRONG]' : ''}`);
      }
    }
    console.log('');
  }
  const section = splitSection({ ...split, report }).join('\n');
  console.log(section.slice(0, section.indexOf('### The answer threshold')).replace(/\*\*/g, '').trim());
  console.log(`\n${report.total} cases in ${seconds} s; share right ${pct(report.right, report.total)}, confident-wrong ${report.confidentWrong}.\n`);
}

if (!only) writeFileSync(path.join(ROOT, 'docs/agent-eval.md'), markdownReport(reported, new Date().toISOString().slice(0, 10)));
console.log(only ? '(one split: docs/agent-eval.md not written)' : 'Written to docs/agent-eval.md.');
const judged = reported.find((s) => s.judged);
const missed = judged ? missedTargets(judged.report) : [];
if (missed.length > 0) {
  console.log(`Held-out targets missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}
