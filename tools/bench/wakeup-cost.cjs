#!/usr/bin/env node
// What waking a Node process costs this machine, apart from any work it then does: the floor under a message's cost at
// a steady, modest rate, where every hop wakes a process that had gone to sleep. Two measurements, each at three
// spacings, printed as CPU µs (user + system, from the processes' own counters); asserts nothing.
//   - a timer that fires and does nothing (the cost of the wake-up alone);
//   - a 200-byte round trip over loopback TCP to another process that echoes one byte (a request to the broker or to
//     PostgreSQL, without their work), counted for both processes.
// Back to back, the processes never sleep; 5 and 20 ms apart, as at 200 and 50 messages a second per hop, they do.
//
//   node tools/bench/wakeup-cost.cjs
//
// Issue 33 (7 Dec, a 2-vCPU VM): an empty timer tick 136 µs 20 ms apart, 42 µs 1 ms apart; a round trip 20 ms apart
// 448 µs for the sender and 267 µs for the receiver, back to back 47 and 48 µs.
const net = require('node:net');
const { fork } = require('node:child_process');
const { readFileSync } = require('node:fs');

const SPACINGS_MS = [0, 5, 20];
const SPAN_MS = 3_000;

const cpuMicros = (usage) => usage.user + usage.system;
/** A process's CPU from /proc, in µs (clock ticks of 10 ms: read over enough round trips). */
function procCpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function timerTicks(spacingMs) {
  const ticks = spacingMs === 0 ? 20_000 : Math.round(SPAN_MS / spacingMs);
  const before = process.cpuUsage();
  if (spacingMs === 0) for (let i = 0; i < ticks; i++) await new Promise((resolve) => setImmediate(resolve));
  else for (let i = 0; i < ticks; i++) await pause(spacingMs);
  return cpuMicros(process.cpuUsage(before)) / ticks;
}

async function roundTrips(spacingMs) {
  const echo = fork(__filename, ['echo'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve) => echo.once('message', resolve));
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));
  const request = Buffer.alloc(200, 1);
  let answered = null;
  socket.on('data', () => answered?.());
  const trips = spacingMs === 0 ? 10_000 : Math.round(SPAN_MS / spacingMs);
  const before = process.cpuUsage();
  const echoBefore = procCpuMicros(echo.pid);
  for (let i = 0; i < trips; i++) {
    await new Promise((resolve) => {
      answered = resolve;
      socket.write(request);
    });
    if (spacingMs > 0) await pause(spacingMs);
  }
  const sender = cpuMicros(process.cpuUsage(before)) / trips;
  const receiver = (procCpuMicros(echo.pid) - echoBefore) / trips;
  socket.destroy();
  echo.kill();
  return { sender, receiver };
}

async function main() {
  for (const spacing of SPACINGS_MS) {
    const label = spacing === 0 ? 'back to back' : `${spacing} ms apart`;
    const tick = await timerTicks(spacing);
    const trip = await roundTrips(spacing);
    console.log(
      `${label.padEnd(13)} an empty wake-up ${tick.toFixed(0).padStart(4)} µs; a loopback round trip: sender ${trip.sender.toFixed(0).padStart(4)} µs, receiver ${trip.receiver.toFixed(0).padStart(4)} µs`,
    );
  }
}

if (process.argv[2] === 'echo') {
  const server = net.createServer((socket) => socket.on('data', (data) => socket.write(data.subarray(0, 1))));
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
