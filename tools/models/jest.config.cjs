// Unit tests of tools/models (plain JavaScript): the zip reader, and the fetch command against a local server.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'models',
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
};
