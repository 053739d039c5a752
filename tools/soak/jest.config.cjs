// Unit tests of the soak's analysis, charts and report (tools/soak/lib, plain CommonJS); no I/O, no stack.
module.exports = {
  ...require('../../jest.preset.cjs'),
  displayName: 'soak',
  rootDir: __dirname,
  testMatch: ['<rootDir>/lib/**/*.spec.ts'],
  moduleFileExtensions: ['ts', 'js', 'cjs', 'json'],
};
