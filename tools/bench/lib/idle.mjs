// The idle stack's CPU: how much of one core each process burns while nothing happens (BENCHMARKS.md: the whole stack
// ≤ 10% of one core over 60 s after start-up, each service ≤ 2%). Any scenario can import `idleCpu` to take its own
// idle baseline; `tools/bench/idle.mjs` runs it on a fresh stack.
import { cpuSecondsOf, delay, round } from './measure.mjs';

/**
 * Per-process share of one core (percent) over `seconds` of quiet, read from utime + stime in /proc/<pid>/stat at
 * the start and the end. `pids`: `{ name: pid }`. Resolves `{ percent: { name: % }, total, seconds }`; a process that
 * exits meanwhile reads null.
 */
export async function idleCpu(pids, { seconds = 60 } = {}) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const started = performance.now();
  await delay(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const percent = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const after = cpuSecondsOf(pid);
      return [name, after === null || before[name] === null ? null : round(((after - before[name]) / elapsed) * 100, 2)];
    }),
  );
  const total = round(Object.values(percent).reduce((sum, p) => sum + (p ?? 0), 0), 2);
  return { percent, total, seconds: round(elapsed, 1) };
}
