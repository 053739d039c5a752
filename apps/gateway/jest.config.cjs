module.exports = { ...require('../../jest.preset.cjs'), displayName: 'gateway', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
