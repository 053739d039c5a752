module.exports = { ...require('../../jest.preset.cjs'), displayName: 'whatsapp-sandbox', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] };
