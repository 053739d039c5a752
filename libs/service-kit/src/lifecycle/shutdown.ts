import type { Readable } from 'node:stream';

/**
 * How a service ends (issue 38): whatever asks it to stop, it is gone within its grace.
 *
 * - `exitWithSupervisor`: a service started by the development supervisor (tools/dev/lib/stack.cjs) runs in a process
 *   group of its own, out of reach of a terminal's or a test runner's signals, with `PARLEY_LIFELINE=stdin` and its
 *   stdin a pipe from the supervisor. When the supervisor dies, however it dies (SIGKILL from a tier's time-out
 *   included), the pipe closes and the service stops as if sent SIGTERM: no orphan outlives its owner. In production
 *   (no such variable) stdin means nothing.
 * - `armShutdownDeadline`: once SIGTERM or SIGINT arrives, the graceful shutdown (Nest's hooks: HTTP close, Kafka
 *   commit and leave, database pools) has `graceMs`; a hook that hangs (a long-lived request, a broker that is gone)
 *   no longer keeps the process alive: it says so and exits 1.
 */

export interface ShutdownProcess {
  env: NodeJS.ProcessEnv;
  stdin: Pick<Readable, 'once' | 'resume'> & { unref?: () => void };
  pid: number;
  kill(pid: number, signal: NodeJS.Signals): void;
  once(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): void;
  exit(code: number): void;
  stderr: { write(text: string): void };
}

export function exitWithSupervisor(name: string, proc: ShutdownProcess = process as unknown as ShutdownProcess): boolean {
  if (proc.env.PARLEY_LIFELINE !== 'stdin') return false;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    proc.stderr.write(`${name}: its supervisor is gone (stdin closed); shutting down\n`);
    proc.kill(proc.pid, 'SIGTERM');
  };
  proc.stdin.once('end', end);
  proc.stdin.once('close', end);
  proc.stdin.once('error', end);
  proc.stdin.resume();
  // The pipe alone must not keep a stopping service alive.
  proc.stdin.unref?.();
  return true;
}

export function armShutdownDeadline(name: string, graceMs: number, proc: ShutdownProcess = process as unknown as ShutdownProcess): void {
  let armed = false;
  const arm = (signal: NodeJS.Signals) => {
    if (armed) return;
    armed = true;
    setTimeout(() => {
      proc.stderr.write(`${name}: did not finish shutting down within ${graceMs / 1000} s of ${signal}; exiting\n`);
      proc.exit(1);
    }, graceMs).unref();
  };
  // `once`: Nest re-raises the signal after its hooks to end the process; a listener left behind would swallow it.
  proc.once('SIGTERM', arm);
  proc.once('SIGINT', arm);
}
