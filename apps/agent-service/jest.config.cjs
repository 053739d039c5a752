module.exports = { ...require('../../jest.preset.cjs'), displayName: 'agent-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
