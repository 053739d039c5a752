module.exports = { ...require('../../jest.preset.cjs'), displayName: 'campaign-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
