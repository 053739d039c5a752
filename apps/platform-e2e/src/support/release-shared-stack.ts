import { readFileSync } from 'node:fs';
import { LENDER_URL_VARIABLE } from './shared-stack-lender.cjs';

// Before a file that does not share the run's stack (it starts its own, or a chaos, soak or scaling stack): the shared
// one, idle by then (test-sequencer.cjs runs the sharing files first), is stopped rather than left running beside it.
const lender = process.env[LENDER_URL_VARIABLE];
const testPath = expect.getState().testPath;
if (lender && testPath && !readFileSync(testPath, 'utf8').includes('sharedPlatform(')) {
  beforeAll(async () => {
    await fetch(`${lender}/release`, { method: 'POST', signal: AbortSignal.timeout(60_000) });
  }, 90_000);
}
