#!/usr/bin/env node
/**
 * `npm run eval`: the scripted agent evaluation (CONTRACT.md §11, tools/eval/README.md). Runs every case in
 * tools/eval/cases through the deterministic reply engine in this process (the TypeScript sources, compiled on load
 * with swc, as the unit tests are), prints the share right, the confident-wrong count and the table per area and
 * language, and writes docs/agent-eval.md. Exits 1 when a target is missed.
 *
 *   npm run eval            # all cases
 *   npm run eval -- --quiet # the totals and table only
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
registerTypeScript();

const started = performance.now();
const { runEval, markdownReport, missedTargets, pct } = require(path.join(ROOT, 'apps/responder-service/src/evaluation/agent-eval.ts'));
const report = await runEval(path.join(ROOT, 'tools/eval'));
const seconds = ((performance.now() - started) / 1000).toFixed(1);

const markdown = markdownReport(report, new Date().toISOString().slice(0, 10));
writeFileSync(path.join(ROOT, 'docs/agent-eval.md'), markdown);

if (!process.argv.includes('--quiet')) {
  for (const c of report.cases.filter((x) => !x.right)) {
    for (const t of c.turns.filter((x) => x.failures.length > 0)) {
      console.log(`✗ ${c.id} (${c.area}, ${c.language}): "${t.customer}"\n    → ${JSON.stringify(t.reply)}\n    ${t.failures.join('; ')}${t.confidentWrong ? '  [CONFIDENT-WRONG]' : ''}`);
    }
  }
  console.log('');
}
const table = markdown.slice(markdown.indexOf('- **Right'), markdown.indexOf('## What the engine gets wrong')).trim();
console.log(table.replace(/\*\*/g, ''));
console.log(`\n${report.total} cases in ${seconds} s; share right ${pct(report.right, report.total)}, confident-wrong ${report.confidentWrong}. Written to docs/agent-eval.md.`);
const missed = missedTargets(report);
if (missed.length > 0) {
  console.log(`Targets missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}

/** Loads the repository's .ts sources through swc (decorators as in jest.preset.cjs) and resolves the @parley/* paths. */
function registerTypeScript() {
  const swc = require('@swc/core');
  const Module = require('node:module');
  const { compilerOptions } = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8'));
  const aliases = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(ROOT, target)]));
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(this, aliases[request] ?? request, ...rest);
  };
  require.extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
      filename,
      module: { type: 'commonjs' },
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        keepClassNames: true,
      },
    });
    module._compile(code, filename);
  };
  require('reflect-metadata');
}
