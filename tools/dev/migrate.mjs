#!/usr/bin/env node
// `npm run db:migrate`: creates the database of DATABASE_URL if needed and applies every service's pending
// migrations (each service owns its schema). Reads .env.example, .env and the environment like `npm start`;
// needs a build (`npm run build`) first.
import stack from './lib/stack.cjs';
import { ReportedError, step } from './lib/runner.mjs';

const { env } = stack.loadEnv();
try {
  await step('database', async () => {
    const db = await stack.ensureDatabase(env.DATABASE_URL);
    return `${db.created ? 'created' : 'using'} "${db.name}"`;
  });
  await step('migrations', async () => {
    const results = await stack.runMigrations(env);
    for (const r of results) if (r.output) process.stdout.write(`  ${r.output.split('\n').join('\n  ')}\n`);
    const skipped = results.filter((r) => r.skipped).map((r) => r.app);
    return skipped.length ? `not built (skipped): ${skipped.join(', ')}` : 'every service is up to date';
  });
} catch (err) {
  if (!(err instanceof ReportedError)) process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
}
