// Checks of the deployment files (Dockerfiles, compose, deploy/kubernetes) against the apps and the official compose schema; no I/O.
module.exports = { ...require('../jest.preset.cjs'), displayName: 'docker', rootDir: __dirname, testMatch: ['<rootDir>/**/*.spec.ts'] };
