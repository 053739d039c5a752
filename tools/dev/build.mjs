#!/usr/bin/env node
// `npm run build`: compiles every app and library into dist/ (swc; see tools/dev/swc-build.mjs).
// Run an app afterwards with `node dist/apps/<app>/src/main.js`, or the whole system with `npm start`.
import { ReportedError, build, step } from './lib/runner.mjs';

try {
  await step('build', build);
} catch (err) {
  if (!(err instanceof ReportedError)) process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
}
