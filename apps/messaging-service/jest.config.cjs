module.exports = { ...require('../../jest.preset.cjs'), displayName: 'messaging-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
