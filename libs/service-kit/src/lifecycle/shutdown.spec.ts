import { PassThrough } from 'node:stream';
import { armShutdownDeadline, exitWithSupervisor, type ShutdownProcess } from './shutdown';

function fakeProcess(env: NodeJS.ProcessEnv = {}) {
  const stdin = new PassThrough();
  const signals = new Map<string, (signal: NodeJS.Signals) => void>();
  const proc = {
    env,
    stdin,
    pid: 4242,
    kills: [] as [number, string][],
    exits: [] as number[],
    errors: [] as string[],
    kill(pid: number, signal: NodeJS.Signals) {
      this.kills.push([pid, signal]);
    },
    once(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void) {
      signals.set(event, listener);
    },
    exit(code: number) {
      this.exits.push(code);
    },
    stderr: { write: (text: string) => void proc.errors.push(text) },
    raise(signal: NodeJS.Signals) {
      const listener = signals.get(signal);
      signals.delete(signal);
      listener?.(signal);
    },
  };
  return proc;
}

describe('exitWithSupervisor', () => {
  it('stops the service (SIGTERM to itself) when its supervisor’s end of stdin closes', async () => {
    const proc = fakeProcess({ PARLEY_LIFELINE: 'stdin' });
    expect(exitWithSupervisor('gateway', proc as unknown as ShutdownProcess)).toBe(true);
    expect(proc.kills).toEqual([]);

    proc.stdin.end();
    await new Promise((resolve) => setImmediate(resolve));

    expect(proc.kills).toEqual([[4242, 'SIGTERM']]);
    expect(proc.errors.join('')).toMatch(/gateway: its supervisor is gone/);
  });

  it('means nothing without PARLEY_LIFELINE=stdin (production: stdin may be closed from the start)', async () => {
    const proc = fakeProcess({});
    expect(exitWithSupervisor('gateway', proc as unknown as ShutdownProcess)).toBe(false);
    proc.stdin.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(proc.kills).toEqual([]);
  });
});

describe('armShutdownDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('exits 1 when the graceful shutdown that SIGTERM began is not over within the grace', () => {
    const proc = fakeProcess();
    armShutdownDeadline('gateway', 8000, proc as unknown as ShutdownProcess);
    jest.advanceTimersByTime(60_000);
    expect(proc.exits).toEqual([]); // no signal, no deadline

    proc.raise('SIGTERM');
    jest.advanceTimersByTime(7999);
    expect(proc.exits).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(proc.exits).toEqual([1]);
    expect(proc.errors.join('')).toMatch(/gateway: did not finish shutting down within 8 s of SIGTERM/);
  });

  it('arms once, whichever signal comes first', () => {
    const proc = fakeProcess();
    armShutdownDeadline('gateway', 1000, proc as unknown as ShutdownProcess);
    proc.raise('SIGINT');
    proc.raise('SIGTERM');
    jest.advanceTimersByTime(5000);
    expect(proc.exits).toEqual([1]);
  });
});
