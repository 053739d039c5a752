'use strict';
// `npm test`'s end-to-end lanes (tools/dev/test.mjs): the files that share the run's stack and those that start their
// own run as two jest runs side by side, each file after file. Their stacks are apart (ports, database and Kafka
// namespace of their own), and one after the other they left a quarter of the two cores idle.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const E2E_DIR = 'apps/platform-e2e/src';

/** A file shares the run's stack when it asks the lender for it (apps/platform-e2e/src/support/platform.ts). */
const sharesStack = (text) => text.includes('sharedPlatform(');

/**
 * The end-to-end files of the checkout at `root`, relative to it, in two lanes (an empty lane left out).
 * @returns {{ label: string, paths: string[] }[]}
 */
function e2eLanes(root) {
  const files = readdirSync(join(root, E2E_DIR))
    .filter((name) => name.endsWith('.e2e-spec.ts'))
    .sort()
    .map((name) => `${E2E_DIR}/${name}`);
  const sharing = new Set(files.filter((file) => sharesStack(readFileSync(join(root, file), 'utf8'))));
  return [
    { label: 'shared stack', paths: files.filter((file) => sharing.has(file)) },
    { label: 'own stacks', paths: files.filter((file) => !sharing.has(file)) },
  ].filter((lane) => lane.paths.length > 0);
}

module.exports = { e2eLanes, sharesStack };
