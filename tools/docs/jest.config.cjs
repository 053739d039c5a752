// The docs site's tooling (tools/docs/lib: runnable examples, the link check) and the site's own build with every
// link landing; the examples themselves run against a stack in the end-to-end tier (apps/platform-e2e docs spec).
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'docs',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
};
