module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'campaign-service:integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/global-teardown.mjs',
  testTimeout: 60000,
};
