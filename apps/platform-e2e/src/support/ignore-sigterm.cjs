'use strict';
// Preloaded (--require) into one service by stack-teardown.e2e-spec.ts: it ignores SIGTERM and keeps its event loop
// busy, a service whose graceful shutdown never ends. Its exit is written to $IGNORE_SIGTERM_MARKS (or beside this file's
// process as a line on stderr) with the time since the first SIGTERM, so the test can tell the deadline ended it.
const fs = require('node:fs');
const marks = process.env.IGNORE_SIGTERM_MARKS;
let firstSigterm = 0;
process.on('SIGTERM', () => {
  firstSigterm ||= Date.now();
});
setInterval(() => undefined, 60_000);
// its supervisor is dead: a log line must not crash it on the broken pipe before its deadline does
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
process.on('exit', (code) => {
  if (marks) fs.appendFileSync(marks, `${JSON.stringify({ pid: process.pid, code, msAfterSigterm: firstSigterm ? Date.now() - firstSigterm : null })}\n`);
});
