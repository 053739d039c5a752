'use strict';
// One stack for every end-to-end spec that only needs a stack: it signs up tenants of its own and never stops, kills or
// reconfigures a service (those specs start their own, startPlatform). Starting the built services, migrating a new
// database and stopping them again took ~25 s of each file; 22 files share one now.
//
// The lender lives in jest's own process (global setup), not in a spec: each spec file runs in a realm of its own and
// cannot hand an object to the next. A spec asks for the stack over a local HTTP call (sharedPlatform() in
// platform.ts); the first ask starts it, later asks get the same one back after a readiness probe of every service, and
// a stack with a service down is replaced (its logs say which), so one spec's crash does not fail the files after it.
// Global teardown stops it.
const http = require('node:http');
const path = require('node:path');
// eslint-disable-next-line @nx/enforce-module-boundaries
const { startPlatform } = require('../../../../tools/dev/lib/platform.cjs');
const { APPS, ROOT } = require('../../../../tools/dev/lib/stack.cjs');
const settings = require('./e2e-settings.cjs');

/**
 * Each answer closes its connection: a spec's ask left a kept-alive one in fetch's pool, and the next spec's ask took
 * it just as the server timed it out (ECONNRESET; every test of that file failed) on a busy machine.
 */
const CLOSE = { connection: 'close' };

/** The environment variable naming the lender's URL, for sharedPlatform(). */
const LENDER_URL_VARIABLE = 'PARLEY_E2E_STACK_LENDER';

class SharedStackLender {
  constructor(log = (m) => process.stderr.write(`[shared-stack] ${m}\n`)) {
    this.log = log;
    /** @type {Promise<import('../../../../tools/dev/lib/platform.cjs').Platform> | undefined} */
    this.platform = undefined;
    this.lends = 0;
  }

  /** Listens on a free local port and names it in LENDER_URL_VARIABLE (the specs' environment is copied from ours). */
  async listen() {
    this.server = http.createServer((req, res) => this.answer(req, res));
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    process.env[LENDER_URL_VARIABLE] = `http://127.0.0.1:${this.server.address().port}`;
  }

  async answer(req, res) {
    if (req.url === '/release') {
      await this.release();
      res.writeHead(204, CLOSE).end();
      return;
    }
    try {
      const platform = await this.lend();
      res.writeHead(200, { 'content-type': 'application/json', ...CLOSE });
      res.end(JSON.stringify({ urls: Object.fromEntries(APPS.map((app) => [app, platform.url(app)])), databaseUrl: platform.infra.databaseUrl }));
    } catch (err) {
      res.writeHead(503, { 'content-type': 'text/plain', ...CLOSE });
      res.end(`the shared stack did not start: ${err.stack ?? err}`);
    }
  }

  /** The running stack if every service is ready; else a new one. Asks that come together get the same stack. */
  async lend() {
    this.lends += 1;
    if (this.platform) {
      const current = await this.platform.catch(() => undefined);
      const down = current ? await this.servicesDown(current) : ['(it did not start)'];
      if (down.length === 0) return current;
      this.log(`replacing the shared stack: ${down.join(', ')} not ready (logs: tmp/logs/e2e/shared)`);
      await current?.stop();
      this.platform = undefined;
    }
    this.platform ??= this.start();
    return this.platform;
  }

  start() {
    const started = Date.now();
    const { TEST_FETCH_MAX_WAIT_MS } = require(path.join(ROOT, 'dist/libs/testing/src/index.js'));
    return startPlatform({
      name: 'e2e',
      logDir: path.join(ROOT, 'tmp', 'logs', 'e2e', 'shared'),
      restart: false,
      env: { ...settings, KAFKA_FETCH_MAX_WAIT_MS: TEST_FETCH_MAX_WAIT_MS },
      log: () => undefined,
    }).then((platform) => {
      this.log(`started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return platform;
    });
  }

  async servicesDown(platform) {
    const probes = await Promise.all(APPS.map(async (app) => ((await platform.stack.probe(app)).ready ? undefined : app)));
    return probes.filter(Boolean);
  }

  /**
   * Stops the shared stack (a later ask starts another): a file starting a stack of its own asks this first, so that
   * no idle second stack runs beside it (the test sequencer puts the sharing files first).
   */
  async release() {
    const platform = await this.platform?.catch(() => undefined);
    this.platform = undefined;
    if (platform) {
      await platform.stop();
      this.log(`stopped after lending it ${this.lends} time(s): a file starts a stack of its own`);
      this.lends = 0;
    }
  }

  async stop() {
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve()));
    const platform = await this.platform?.catch(() => undefined);
    if (platform) {
      await platform.stop();
      this.log(`stopped after lending it ${this.lends} time(s)`);
    }
  }
}

module.exports = { SharedStackLender, LENDER_URL_VARIABLE };
