// End-to-end global setup: the infrastructure (as every tier: tools/testing), then the lender of the stack the specs
// that need only a stack share (src/support/shared-stack-lender.cjs). It starts nothing until a spec asks.
import { createRequire } from 'node:module';
import infrastructureSetup from '../../tools/testing/global-setup.mjs';

const require = createRequire(import.meta.url);
const { SharedStackLender } = require('./src/support/shared-stack-lender.cjs');

export default async function globalSetup(...args) {
  await infrastructureSetup(...args);
  const lender = new SharedStackLender();
  await lender.listen();
  globalThis.__PARLEY_STACK_LENDER__ = lender;
}
