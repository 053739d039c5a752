// CPU accounting of a cost-per-message run (BENCHMARKS.md "Cost per message"): the machine's busy time from
// /proc/stat, and the processes a message passes through (the services, Kafka, PostgreSQL, Redis) from
// /proc/<pid>/stat, read as snapshots that are subtracted.
import { readFileSync, readdirSync } from 'node:fs';
import { cpuSecondsOf, wakeUpsOf } from './measure.mjs';

/** USER_HZ: 100 on every Linux this runs on. */
const MS_PER_TICK = 10;

/** Busy CPU milliseconds of the whole machine since boot (every core; idle and iowait are not busy). */
export function machineBusyMs() {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) * MS_PER_TICK;
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

function allPids() {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
}

/**
 * The shared infrastructure's processes as groups of pids: `kafka` (the broker's JVM), `postgres backends` (the
 * connections to `database`, the run's own), `postgres shared` (postmaster and its workers: WAL writer, checkpointer,
 * and the other databases' backends, i.e. other engineers' tests), `redis`. Read again at every snapshot: a pool may
 * open a connection meanwhile.
 */
export function infrastructurePids(database) {
  const groups = { kafka: [], 'postgres backends': [], 'postgres shared': [], redis: [] };
  for (const pid of allPids()) {
    const cmd = cmdline(pid);
    if (!cmd) continue;
    if (/^\S*java\b/.test(cmd) && /kafka/i.test(cmd)) groups.kafka.push(pid);
    else if (cmd.startsWith('redis-server')) groups.redis.push(pid);
    // A backend reads "postgres: 15/main: <user> <database> <client> <state>" (the cluster name is optional).
    else if (/^postgres: (?:\S+: )?\S+ (\S+) \S+\(\d+\)/.exec(cmd)?.[1] === database) groups['postgres backends'].push(pid);
    else if (/^(postgres:|\S*\/postgres )/.test(cmd)) groups['postgres shared'].push(pid);
  }
  return groups;
}

/** `read(pid)` of each pid still there (read answers null for a pid that is gone). */
function perPid(pids, read) {
  const out = new Map();
  for (const pid of pids) {
    const value = read(pid);
    if (value !== null) out.set(pid, value);
  }
  return out;
}

const cpuMsOf = (pid) => {
  const seconds = cpuSecondsOf(pid);
  return seconds === null ? null : seconds * 1000;
};

/** Per group, the sum over its pids of a counter's growth (a pid new since `earlier` counts from zero). */
function difference(now, earlier) {
  const out = {};
  for (const [name, values] of Object.entries(now)) {
    const before = earlier[name] ?? new Map();
    let sum = 0;
    for (const [pid, v] of values) sum += v - (before.get(pid) ?? 0);
    out[name] = sum;
  }
  return out;
}

/**
 * A snapshot of the machine and of named process groups (`{ name: [pid, …] }`), to subtract from a later one.
 * A pid present in the later snapshot only counts all its CPU (a connection opened meanwhile); one that went away
 * counts nothing after its last reading.
 */
export class CpuSnapshot {
  constructor(groups) {
    this.at = performance.now();
    this.machine = machineBusyMs();
    this.groups = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, perPid(pids, cpuMsOf)]));
    this.wakeUps = Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, perPid(pids, wakeUpsOf)]));
  }

  /**
   * `{ seconds, machine, groups: { name: ms }, wakeUps: { name: n } }` used between `earlier` and this snapshot: CPU ms
   * and wake-ups (voluntary context switches of every thread) of each group.
   */
  since(earlier) {
    return {
      seconds: (this.at - earlier.at) / 1000,
      machine: this.machine - earlier.machine,
      groups: difference(this.groups, earlier.groups),
      wakeUps: difference(this.wakeUps, earlier.wakeUps ?? {}),
    };
  }
}
