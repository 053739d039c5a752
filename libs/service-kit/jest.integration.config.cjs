module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'service-kit:integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/global-teardown.mjs',
  testEnvironment: '<rootDir>/../../tools/testing/integration-environment.cjs',
  testTimeout: 60000,
};
