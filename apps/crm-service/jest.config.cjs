module.exports = { ...require('../../jest.preset.cjs'), displayName: 'crm-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
