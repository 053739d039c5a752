module.exports = { ...require('../../jest.preset.cjs'), displayName: 'responder-service', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
