#!/usr/bin/env node
// Runs the runnable blocks of docs pages against a running system (`npm start`), as a reader would:
//   node tools/docs/run-examples.mjs docs/quickstart.md [more pages…]
// Prints each block's line and whether its output is what the page shows; exits 1 at the first difference.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const { runPage } = createRequire(import.meta.url)('./lib/runnable-examples.cjs');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pages = process.argv.slice(2);
if (!pages.length) {
  console.error('usage: node tools/docs/run-examples.mjs <page.md> [...]');
  process.exit(2);
}
let failed = false;
for (const page of pages) {
  const results = await runPage(readFileSync(resolve(page), 'utf8'), { cwd: root });
  for (const r of results) {
    console.log(`${r.ok ? '✓' : '✗'} ${page}:${r.line}`);
    if (!r.ok) {
      console.log(`  ${r.error}\n  --- output ---\n${r.output}\n  --- the page shows ---\n${r.expected ?? ''}`);
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);
