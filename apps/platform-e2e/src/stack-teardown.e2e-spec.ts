import { testInfra } from '@parley/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

// Issue 38: a fresh clone's `npm test` left the chaos stack's services running after it had exited (its tier ran out
// of time and jest was SIGKILLed; the services run in process groups of their own), and the gateway ignored SIGTERM.
// Here the chaos harness's stack is started by a process of its own (support/chaos-stack-owner.cjs) that is then
// SIGKILLed, the worst way a failing test can end: no afterAll, no exit hook. Every service must go by itself (its
// stdin lifeline closes), the gateway, which ignores SIGTERM and never finishes shutting down, by its shutdown deadline.

interface Owned {
  services: { app: string; pid: number }[];
  database: string;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the chaos harness leaves no process behind when the test holding it dies', () => {
  let owner: ChildProcess | undefined;
  let owned: Owned | undefined;
  const scratch = mkdtempSync(path.join(tmpdir(), 'parley-teardown-'));
  const marks = path.join(scratch, 'gateway-exit.jsonl');

  afterAll(async () => {
    owner?.kill('SIGKILL');
    for (const { pid } of owned?.services ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
    if (owned) {
      const admin = new Client({ connectionString: testInfra().postgresUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${owned.database}" WITH (FORCE)`).finally(() => admin.end());
    }
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('ends every service of the stack after its owner is SIGKILLed, the one that ignores SIGTERM within its shutdown grace', async () => {
    owner = spawn(process.execPath, [path.join(__dirname, 'support/chaos-stack-owner.cjs')], {
      env: { ...process.env, IGNORE_SIGTERM_MARKS: marks },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    owned = await new Promise<Owned>((resolve, reject) => {
      let out = '';
      owner!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line) as Owned);
      });
      owner!.once('exit', (code) => reject(new Error(`the owner exited (${code}) before its stack was ready`)));
    });
    expect(owned.services.map((s) => s.app)).toEqual(expect.arrayContaining(['gateway', 'messaging-service', 'responder-service', 'whatsapp-sandbox']));
    expect(owned.services.every((s) => alive(s.pid))).toBe(true);

    const killedAt = Date.now();
    owner.kill('SIGKILL');

    // Services stop within their shutdown grace (SHUTDOWN_GRACE_MS, 8 s); the margin is for a busy machine.
    const deadline = killedAt + 30_000;
    while (owned.services.some((s) => alive(s.pid)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(owned.services.filter((s) => alive(s.pid)).map((s) => s.app)).toEqual([]);

    // The gateway did not go on its own: its deadline ended it, 8 s after the SIGTERM its lifeline sent.
    const [gatewayExit] = readFileSync(marks, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { code: number; msAfterSigterm: number | null });
    expect(gatewayExit.code).toBe(1);
    expect(gatewayExit.msAfterSigterm).toBeGreaterThanOrEqual(7_900);
  }, 300_000);
});
