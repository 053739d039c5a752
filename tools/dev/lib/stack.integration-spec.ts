// How the development supervisor (stack.cjs) ends its services (issue 38), with real child processes standing in for
// the services: a tiny HTTP server at dist/apps/gateway/src/main.js in a scratch checkout. What a real service does with
// its lifeline is libs/service-kit's (lifecycle/shutdown.spec.ts); the whole chain on the built services is the
// chaos harness's end-to-end test (apps/platform-e2e/src/stack-teardown.e2e-spec.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import leftovers from './leftovers.cjs';
import { Stack, freePorts } from './stack.cjs';

const FAKE_SERVICE = `
const fs = require('node:fs');
const mark = (what) => fs.appendFileSync(process.env.MARKS_FILE, what + '\\n');
if (process.env.IGNORE_SIGTERM) process.on('SIGTERM', () => mark('ignored SIGTERM'));
// the half of the lifeline a service keeps (libs/service-kit does this): its supervisor's end closes stdin
if (process.env.PARLEY_LIFELINE === 'stdin') process.stdin.on('end', () => { mark('lifeline closed'); process.exit(0); }).resume();
require('node:http').createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1', () => mark('listening ' + process.pid));
`;

describe('the development supervisor ends what it started', () => {
  let checkout: string;
  let marks: string;

  beforeEach(() => {
    checkout = mkdtempSync(path.join(tmpdir(), 'parley-stack-'));
    marks = path.join(checkout, 'marks.txt');
    writeFileSync(marks, '');
    mkdirSync(path.join(checkout, 'dist/apps/gateway/src'), { recursive: true });
    writeFileSync(path.join(checkout, 'dist/apps/gateway/src/main.js'), FAKE_SERVICE);
  });

  afterEach(() => rmSync(checkout, { recursive: true, force: true }));

  const readMarks = () => readFileSync(marks, 'utf8').trim().split('\n').filter(Boolean);

  async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('kills a service that ignores SIGTERM once the grace of stop() is over', async () => {
    const ports = await freePorts(['gateway']);
    const stack = new Stack({ root: checkout, apps: ['gateway'], ports, env: { ...process.env, MARKS_FILE: marks, IGNORE_SIGTERM: '1' }, detached: true, log: () => undefined });
    await stack.start({ timeoutMs: 15_000 });
    const child = stack.services.get('gateway')!.child!;

    const started = Date.now();
    await stack.stop({ graceMs: 1000 });

    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(child.signalCode).toBe('SIGKILL');
    expect(readMarks()).toContain('ignored SIGTERM');
  });

  it('gives each service a lifeline that closes when the supervising process dies, even by SIGKILL', async () => {
    const ports = await freePorts(['gateway']);
    // The supervisor in a process of its own, as a test runner's jest is; SIGKILL leaves it no exit hook to run.
    const owner = spawn(
      process.execPath,
      [
        '-e',
        `const { Stack } = require(${JSON.stringify(require.resolve('./stack.cjs'))});
         const stack = new Stack({ root: ${JSON.stringify(checkout)}, apps: ['gateway'], ports: ${JSON.stringify(ports)}, env: { ...process.env, MARKS_FILE: ${JSON.stringify(marks)} }, detached: true, log: () => undefined });
         stack.start({ timeoutMs: 15000 }).then(() => console.log('ready'));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      owner.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before its stack was ready`)));
    });
    const servicePid = Number(readMarks().find((m) => m.startsWith('listening '))!.split(' ')[1]);
    expect(leftovers.alive(servicePid)).toBe(true);

    owner.kill('SIGKILL');

    await until(() => !leftovers.alive(servicePid), 'the orphaned service is gone');
    expect(readMarks()).toContain('lifeline closed');
  });

  it('finds the processes a run left behind by their command line or working folder, not the ones it was asked to keep', async () => {
    const script = path.join(checkout, 'dist/apps/gateway/idle.js');
    writeFileSync(script, 'setInterval(() => undefined, 1000);');
    const left = spawn(process.execPath, [script], { stdio: 'ignore', detached: true });
    const kept = spawn(process.execPath, [script, 'kafka.Kafka'], { stdio: 'ignore', detached: true });
    // a spec's private broker names only /tmp, but works in the checkout
    const inside = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], { cwd: checkout, stdio: 'ignore', detached: true });
    try {
      await until(() => leftovers.processesOf(checkout).length === 3, 'the three processes are seen');
      const found = leftovers.processesOf(checkout, { keep: (command: string) => command.includes('kafka.Kafka') });
      expect(found.map((p: { pid: number }) => p.pid).sort()).toEqual([left.pid, inside.pid].sort());

      const killed = await leftovers.endProcesses(found, { graceMs: 2000 });
      expect(killed).toEqual([]); // they went on SIGTERM
      await until(() => !leftovers.alive(left.pid!) && !leftovers.alive(inside.pid!), 'the leftovers are gone');
      expect(leftovers.alive(kept.pid!)).toBe(true);
    } finally {
      for (const child of [left, kept, inside]) child.kill('SIGKILL');
    }
  });
});
