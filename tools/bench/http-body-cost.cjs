#!/usr/bin/env node
// What one POST with a JSON body costs a bare Fastify server in CPU, at saturation: the floor under every route of
// ours that takes a body (a send, a provider's notification). autocannon posts for 8 s after a 2 s warm-up; the
// server runs in a process of its own and reports its CPU. Prints one line; asserts nothing.
//
//   node tools/bench/http-body-cost.cjs [path to a fastify package, default the installed one]
//
// Issue 33: fastify 5.11.3 cost 83–95 µs a request here, 5.12.8 37–39 µs (Node 20: 5.11's body parser wrapped each
// request's callback with AsyncResource.bind, which builds two deprecation wrappers a call).
const { spawn } = require('node:child_process');
const path = require('node:path');

const fastifyPath = path.resolve(process.argv[2] ?? path.dirname(require.resolve('fastify/package.json')));
const DURATION_S = 8;

if (process.argv[3] === 'server') {
  const app = require(fastifyPath)({ logger: false });
  app.post('/v1/send', async (request) => ({ status: 'sent', length: request.body.message.length }));
  app.listen({ port: 0, host: '127.0.0.1' }).then(() => process.send(app.server.address().port));
  process.on('message', () => {
    const used = process.cpuUsage();
    process.send({ cpu: used.user + used.system });
  });
} else {
  const autocannon = require('autocannon');
  const server = spawn(process.execPath, [__filename, fastifyPath, 'server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const cpuMicros = () =>
    new Promise((resolve) => {
      server.once('message', (m) => resolve(m.cpu));
      server.send('cpu');
    });
  server.once('message', async (port) => {
    const body = JSON.stringify({ channel: 'whatsapp', to: '+4915120000001', message: 'Your order is ready' });
    const options = { url: `http://127.0.0.1:${port}/v1/send`, method: 'POST', connections: 32, headers: { 'content-type': 'application/json' }, body };
    await autocannon({ ...options, duration: 2 });
    const before = await cpuMicros();
    const result = await autocannon({ ...options, duration: DURATION_S });
    const used = (await cpuMicros()) - before;
    const version = require(path.join(fastifyPath, 'package.json')).version;
    console.log(`fastify ${version}: ${result.requests.total} POSTs in ${DURATION_S} s (${Math.round(result.requests.average)}/s), the server's CPU ${(used / result.requests.total).toFixed(1)} µs a request`);
    server.kill();
  });
}
