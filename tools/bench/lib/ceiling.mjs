// The ceilings a scenario compares the platform with, each a process of its own (ceiling-server.cjs): `bare`, a bare
// Fastify route answering 200; `kafka`, a bare Fastify route producing the same record as `POST /v1/send` through the
// platform's EventPublisher.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './platform.mjs';

/** Starts a ceiling server; resolves `{ url, pid, stop }` (`url` is its `POST /v1/send`). */
export async function startCeiling(mode, platform) {
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/bench/lib/ceiling-server.cjs')], {
    env: { ...process.env, CEILING_MODE: mode, KAFKA_BROKERS: platform.infra.kafkaBrokers, KAFKA_TOPIC_PREFIX: `${platform.namespace}ceiling.` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its own output (kafkajs complaining while fresh topics elect leaders, say) goes to a log beside the services'.
  child.stderr.pipe(createWriteStream(path.join(ROOT, 'tmp/logs/bench', `ceiling-${mode}.log`)));
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${mode} ceiling exited (${code})`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/v1/send`,
    pid: child.pid,
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}
