module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'responder-service',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Node's own typed arrays, which onnxruntime-node (the embedding model, src/semantics) checks its tensors against
  testEnvironment: require.resolve('../../tools/testing/node-environment.cjs'),
};
