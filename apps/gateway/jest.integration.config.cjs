const preset = require('../../jest.preset.cjs');

module.exports = {
  ...preset,
  displayName: 'gateway:integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/global-teardown.mjs',
  testTimeout: 60000,
  // @fastify/static (behind /docs) requires an ESM-only content-disposition. Node loads it (require(esm)); jest's
  // CommonJS runtime cannot, so that one package is compiled to CommonJS for the tests.
  transform: {
    ...preset.transform,
    'content-disposition/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@fastify/static/node_modules/)?content-disposition/)'],
};
