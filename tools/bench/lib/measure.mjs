// Numbers of a benchmark run: latency percentiles, peak memory of processes, and the progress line.
import { readFileSync, readdirSync } from 'node:fs';

/** Latencies in milliseconds; percentiles by nearest rank. */
export class Latencies {
  values = [];

  add(ms) {
    this.values.push(ms);
  }

  get count() {
    return this.values.length;
  }

  summary() {
    const sorted = Float64Array.from(this.values).sort();
    const at = (p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
    return { p50: at(50), p90: at(90), p99: at(99), max: sorted.length ? sorted[sorted.length - 1] : null };
  }
}

/** Resident set size of a process in MB, `{ rss, hwm }` (current and lifetime peak); null when it is gone. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far; null when it is gone. */
export function cpuSecondsOf(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/**
 * How many times the threads of a process have gone to sleep and been woken so far (their voluntary context switches,
 * summed over /proc/<pid>/task/*): a process's wake-ups; null when it is gone. Threads that ended meanwhile are not
 * counted, so read over a window in which none does (a service's thread pool is made at start-up).
 */
export function wakeUpsOf(pid) {
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1] ?? 0);
      } catch {
        // the thread ended between the listing and the read
      }
    }
    return total;
  } catch {
    return null;
  }
}

/**
 * Samples VmRSS of named processes while a scenario runs and keeps each one's peak (VmHWM is the lifetime peak,
 * start-up included, so the scenario's own peak comes from sampling).
 */
export class RssSampler {
  constructor(pids, intervalMs = 200) {
    this.pids = pids;
    this.peak = Object.fromEntries(Object.keys(pids).map((name) => [name, 0]));
    this.cpuAtStart = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }

  sample() {
    for (const [name, pid] of Object.entries(this.pids)) {
      const mem = memoryOf(pid);
      if (mem && mem.rss > this.peak[name]) this.peak[name] = mem.rss;
    }
  }

  /** Peak RSS (MB) of each process; `cpu` then holds the CPU seconds each used meanwhile. */
  stop() {
    clearInterval(this.timer);
    this.sample();
    this.cpu = Object.fromEntries(
      Object.entries(this.pids).map(([name, pid]) => [name, round((cpuSecondsOf(pid) ?? NaN) - (this.cpuAtStart[name] ?? NaN), 2)]),
    );
    return Object.fromEntries(Object.entries(this.peak).map(([name, mb]) => [name, Math.round(mb)]));
  }
}

/** Progress on stderr: one line per second while something runs. */
export function progress(label, read, intervalMs = 1000) {
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(`  ${label} ${seconds}s ${read()}\n`);
  }, intervalMs);
  return () => clearInterval(timer);
}

export const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function round(value, digits = 1) {
  if (value === null || value === undefined || Number.isNaN(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Sends `rate` requests per second for `seconds` (open loop: the schedule does not wait for answers, so a slow
 * system sees the offered load, not a politely reduced one). `fire(i)` starts request i and resolves when done; a
 * rejection counts in `failed` (the first one's message in `firstError`).
 */
export async function openLoop({ rate, seconds, fire }) {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const inFlight = new Set();
  let sent = 0;
  let failed = 0;
  let firstError = null;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (sent < due) {
      const p = fire(sent++)
        .catch((err) => {
          failed++;
          firstError ??= String(err?.message ?? err);
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await delay(5);
  }
  await Promise.all([...inFlight]);
  return { sent, failed, firstError, seconds: (performance.now() - started) / 1000 };
}
