// End-to-end global teardown: the shared stack first (its topics and database), then the infrastructure.
import infrastructureTeardown from '../../tools/testing/global-teardown.mjs';

export default async function globalTeardown(...args) {
  await globalThis.__PARLEY_STACK_LENDER__?.stop();
  await infrastructureTeardown(...args);
}
