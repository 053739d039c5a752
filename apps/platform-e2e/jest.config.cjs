// End-to-end tier: the built services (dist/) as real processes, over HTTP, on real Kafka and PostgreSQL.
// `npm test` builds first; run alone with `node tools/dev/swc-build.mjs && npx jest --config apps/platform-e2e/jest.config.cjs --runInBand`.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'platform-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  // The stack runner is plain CommonJS (tools/dev/lib/stack.cjs).
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
  globalSetup: '<rootDir>/../../tools/testing/global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/global-teardown.mjs',
  testTimeout: 120000,
};
