'use strict';
// Processes a test tier left behind (issue 38): every process started after this one whose command line names this
// checkout (a service's dist/apps/<app>/main.js, a jest worker) or that works in it (a spec's private Kafka broker),
// except this process, its ancestors and the ones the caller keeps (the Kafka broker the run started). A developer's own `npm start` from before the run is not touched.
// Linux /proc only; elsewhere none are found.
const fs = require('node:fs');

/**
 * @param {string} root the checkout
 * @param {{keep?: (command: string) => boolean}} [options] processes to leave running (the run's Kafka broker)
 * @returns {{pid: number, command: string}[]}
 */
function processesOf(root, { keep = () => false } = {}) {
  let pids;
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
  const spared = new Set(ancestors(process.pid));
  const since = startTicks(process.pid);
  const found = [];
  for (const pid of pids) {
    if (spared.has(pid) || startTicks(pid) < since) continue;
    const command = commandLine(pid);
    if (command && (namesCheckout(command, root) || runsIn(pid, root)) && !keep(command)) found.push({ pid, command });
  }
  return found;
}

function namesCheckout(command, root) {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return command.split(' ').some((arg) => arg.startsWith(prefix) || arg.includes(`=${prefix}`));
}

/** The process works in the checkout (a private test broker started by a spec: its command names only /tmp). */
function runsIn(pid, root) {
  try {
    const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    return cwd === root || cwd.startsWith(`${root}/`);
  } catch {
    return false;
  }
}

function commandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** The fields of /proc/<pid>/stat after "pid (comm)" (comm may hold spaces and parentheses): state, ppid, ... */
function statFields(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

function parentOf(pid) {
  return Number(statFields(pid)[1] ?? 0);
}

/** When the process started, in clock ticks since boot (field 22 of stat; the 20th after comm). */
function startTicks(pid) {
  return Number(statFields(pid)[19] ?? 0);
}

function ancestors(pid) {
  const chain = [];
  for (let p = pid; p > 1 && chain.length < 64; p = parentOf(p)) chain.push(p);
  return chain;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends `found`: SIGTERM, up to `graceMs` for them to go, then SIGKILL. Resolves the pids that needed the SIGKILL.
 * @param {{pid: number}[]} found
 */
async function endProcesses(found, { graceMs = 10_000 } = {}) {
  for (const { pid } of found) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (found.some(({ pid }) => alive(pid)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const stubborn = found.filter(({ pid }) => alive(pid)).map(({ pid }) => pid);
  for (const pid of stubborn) signal(pid, 'SIGKILL');
  return stubborn;
}

function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

module.exports = { processesOf, endProcesses, alive };
