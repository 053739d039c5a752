// Unit tests of what `npm start` and `npm test` run on (tools/dev/lib, plain JavaScript); no I/O, no stack.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'dev-tools',
  rootDir: __dirname,
  testMatch: ['<rootDir>/lib/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
};
