module.exports = { ...require('../../jest.preset.cjs'), displayName: 'webhook-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
