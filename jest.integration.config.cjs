// The integration tier as one jest run (`npm test` runs it so): every project's *.integration-spec.ts, on real Kafka and
// PostgreSQL, two suites at a time across projects. The suites mostly wait (on the broker, the database, a service's
// consumers joining): one project after another kept the 2 cores 47 % busy (934 s on 2026-12-06); jest's two workers
// take the next suite of any project, longest first once it has timings. Each suite has its own database, Kafka
// namespace and Redis prefix, so suites of any projects may run side by side. One project alone: `nx run
// <project>:test-integration`.
const { readdirSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const roots = ['apps', 'libs', 'tools'].flatMap((dir) => readdirSync(join(__dirname, dir)).map((name) => join(__dirname, dir, name)));

module.exports = {
  // jest reads a test's time-out from the run's config, not from its project's: the longest any project asks (libs/testing)
  testTimeout: 90_000,
  projects: roots.map((root) => join(root, 'jest.integration.config.cjs')).filter((config) => existsSync(config)),
};
