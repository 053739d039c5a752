module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'responder-service:integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.integration-spec.ts'],
  globalSetup: '<rootDir>/../../tools/testing/global-setup.mjs',
  globalTeardown: '<rootDir>/../../tools/testing/global-teardown.mjs',
  // with Node's own typed arrays, which onnxruntime-node (the embedding model, src/semantics) checks its tensors against
  testEnvironment: '<rootDir>/../../tools/testing/integration-environment.cjs',
  testTimeout: 60000,
};
