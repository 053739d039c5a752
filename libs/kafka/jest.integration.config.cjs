module.exports = { ...require('../../jest.preset.cjs'), displayName: 'kafka:integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.integration-spec.ts'], testTimeout: 60000 };
