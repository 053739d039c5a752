// Unit tests of the fuzz suite's case generators and oracle (tools/fuzz/lib, plain CommonJS); no I/O, no stack.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'fuzz',
  rootDir: __dirname,
  testMatch: ['<rootDir>/lib/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
};
