'use strict';
// The owner of a chaos stack for stack-teardown.e2e-spec.ts: starts the chaos harness's stack (all services,
// supervised, as `npm run chaos` does), prints one JSON line naming its processes, then waits to be killed, the way a
// test runner holding a stack is killed when its tier runs out of time. Its gateway ignores SIGTERM and would hang
// forever (ignore-sigterm.cjs), the case of the gateway in issue 38.
const path = require('node:path');
const { ChaosPlatform } = require('../../../../tools/chaos/lib/platform.cjs');

ChaosPlatform.start({
  label: 'teardown',
  restart: true,
  nodeArgs: { gateway: ['--require', path.join(__dirname, 'ignore-sigterm.cjs')] },
}).then(
  (platform) => {
    const services = platform.services().map((s) => ({ app: s.app, pid: s.child.pid }));
    process.stdout.write(`${JSON.stringify({ services, database: platform.db.name })}\n`);
    setInterval(() => undefined, 60_000);
  },
  (err) => {
    process.stderr.write(`the chaos stack did not start: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
