module.exports = { ...require('../../jest.preset.cjs'), displayName: 'kafka', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
