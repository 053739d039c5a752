'use strict';
// Runs the end-to-end files that share the run's stack (sharedPlatform()) first, then those that start their own
// stacks: the first of those has the lender stop the shared stack (src/support/release-shared-stack.ts), so
// the files that load the machine (a campaign at 60 messages/s, chaos, soak) never run beside an idle second stack,
// and the shared one starts once. Within each group jest's own order (failed first, then longest first) is kept.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const sharesStack = (path) => readFileSync(path, 'utf8').includes('sharedPlatform(');

class SharedStackFirst extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    return [...sorted.filter((t) => sharesStack(t.path)), ...sorted.filter((t) => !sharesStack(t.path))];
  }
}

module.exports = SharedStackFirst;
