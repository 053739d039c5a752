module.exports = { ...require('../../jest.preset.cjs'), displayName: 'billing-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
