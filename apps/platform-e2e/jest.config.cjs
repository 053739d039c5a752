// End-to-end tier: the built services (dist/) as real processes, over HTTP, on real Kafka and PostgreSQL.
// `npm test` builds first; run alone with `node tools/dev/swc-build.mjs && npx jest --config apps/platform-e2e/jest.config.cjs --runInBand`.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'platform-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  // The stack runner is plain CommonJS (tools/dev/lib/stack.cjs).
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
  // the infrastructure, and the stack most specs share (src/support/shared-stack-lender.cjs)
  globalSetup: '<rootDir>/global-setup.mjs',
  globalTeardown: '<rootDir>/global-teardown.mjs',
  // the files sharing the stack first, so it is stopped once before the files with stacks of their own
  testSequencer: '<rootDir>/test-sequencer.cjs',
  setupFilesAfterEnv: ['<rootDir>/src/support/release-shared-stack.ts'],
  testTimeout: 120000,
};
