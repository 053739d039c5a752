// Integration tests of what `npm start` and `npm test` run on: real child processes, no Kafka or PostgreSQL needed.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'dev-tools:integration',
  rootDir: __dirname,
  testMatch: ['<rootDir>/lib/**/*.integration-spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
  testTimeout: 60000,
};
