#!/usr/bin/env node
// Local Apache Kafka broker (KRaft, single node) for development and tests, without Docker.
//
//   node tools/kafka/kafka.mjs fetch|start|stop|status|reset
//
// Environment: KAFKA_HOME_DIR (state folder, default .kafka/), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (port + 1),
// KAFKA_LIB_DIR (broker jars, default $KAFKA_HOME_DIR/lib).
//
// The broker jars come from Maven Central through tools/kafka/pom.xml into the git-ignored .kafka/ folder.
// `start` is idempotent: a healthy broker that is already running is reused, a stale pid file is cleaned up.
// Only Node built-ins are used here, so this works on a fresh clone before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alive } from '../dev/lib/leftovers.cjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const home = process.env.KAFKA_HOME_DIR ? resolve(process.env.KAFKA_HOME_DIR) : join(root, '.kafka');
const paths = {
  // KAFKA_LIB_DIR lets a throwaway broker (tests with their own KAFKA_HOME_DIR) reuse jars fetched once elsewhere.
  lib: process.env.KAFKA_LIB_DIR ? resolve(process.env.KAFKA_LIB_DIR) : join(home, 'lib'),
  data: join(home, 'data'),
  log: join(home, 'broker.log'),
  pid: join(home, 'broker.pid'),
  props: join(home, 'server.properties'),
  log4j: join(home, 'log4j.properties'),
  clusterId: join(home, 'cluster.id'),
};
const host = '127.0.0.1';
const port = Number(process.env.KAFKA_PORT ?? 9092);
const controllerPort = Number(process.env.KAFKA_CONTROLLER_PORT ?? port + 1);
const READY_LINE = 'Kafka Server started';
const START_DEADLINE_MS = Number(process.env.KAFKA_START_TIMEOUT_MS ?? 120_000);
const STOP_DEADLINE_MS = 30_000;

const say = (msg) => process.stderr.write(`[kafka] ${msg}\n`);

export const brokerAddress = `${host}:${port}`;

function jarsPresent() {
  return existsSync(paths.lib) && readdirSync(paths.lib).some((f) => /^kafka_2\.13-.*\.jar$/.test(f));
}

/** Copies the broker's runtime jars from Maven Central into .kafka/lib (skipped when present). */
export function fetchBroker() {
  if (jarsPresent()) return;
  say('fetching Apache Kafka 3.9 from Maven Central (first run only, ~20 s)...');
  mkdirSync(home, { recursive: true });
  const started = Date.now();
  const mvn = spawnSync(
    'mvn',
    ['-B', '-q', '-f', join(here, 'pom.xml'), 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${paths.lib}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (mvn.error) throw new Error(`could not run Maven (mvn): ${mvn.error.message}. Install Maven and a JDK 17+.`);
  if (mvn.status !== 0 || !jarsPresent()) throw new Error(`Maven could not fetch the Kafka broker (exit ${mvn.status}).`);
  say(`fetched ${readdirSync(paths.lib).length} jars in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function writeConfig() {
  mkdirSync(paths.data, { recursive: true });
  writeFileSync(
    paths.props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@${host}:${controllerPort}`,
      `listeners=PLAINTEXT://${host}:${port},CONTROLLER://${host}:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://${host}:${port}`,
      'inter.broker.listener.name=PLAINTEXT',
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      `log.dirs=${paths.data}`,
      // Topics are created explicitly by the services (libs/kafka); auto-creation stays off so nothing relies on it.
      'auto.create.topics.enable=false',
      'num.partitions=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'transaction.state.log.num.partitions=1',
      'group.initial.rebalance.delay.ms=0',
      'group.min.session.timeout.ms=1000',
      'num.network.threads=2',
      'num.io.threads=2',
      'log.retention.hours=168',
      '',
    ].join('\n'),
  );
  writeFileSync(
    paths.log4j,
    [
      'log4j.rootLogger=INFO, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      'log4j.logger.kafka.request.logger=WARN',
      'log4j.logger.state.change.logger=WARN',
      '',
    ].join('\n'),
  );
}

function clusterId() {
  if (existsSync(paths.clusterId)) return readFileSync(paths.clusterId, 'utf8').trim();
  const out = spawnSync('java', ['-cp', `${paths.lib}/*`, 'kafka.tools.StorageTool', 'random-uuid'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`kafka-storage random-uuid failed: ${out.stderr}`);
  const id = out.stdout.trim().split('\n').pop();
  writeFileSync(paths.clusterId, id);
  return id;
}

function formatStorage() {
  if (existsSync(join(paths.data, 'meta.properties'))) return;
  say('formatting the KRaft storage...');
  const out = spawnSync(
    'java',
    [`-Dlog4j.configuration=file:${paths.log4j}`, '-cp', `${paths.lib}/*`, 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', paths.props, '--ignore-formatted'],
    { encoding: 'utf8' },
  );
  if (out.status !== 0) throw new Error(`formatting the Kafka storage failed:\n${out.stdout}\n${out.stderr}`);
}

function readPid() {
  if (!existsSync(paths.pid)) return undefined;
  const pid = Number(readFileSync(paths.pid, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function portOpen(p = port) {
  return new Promise((res) => {
    const socket = net.connect({ host, port: p });
    const done = (ok) => {
      socket.destroy();
      res(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the broker unless a healthy one already listens. Resolves with `{ brokers, started }`, where `started`
 * tells whether this call launched it (and so whether the caller should stop it again).
 */
export async function startBroker() {
  const pid = readPid();
  if (pid && alive(pid) && (await portOpen())) {
    say(`reusing the running broker (pid ${pid}) at ${brokerAddress}`);
    return { brokers: brokerAddress, started: false };
  }
  if (!pid && (await portOpen())) {
    say(`a broker not started by this tool already listens at ${brokerAddress}; using it`);
    return { brokers: brokerAddress, started: false };
  }
  if (pid) {
    say(`cleaning up a stale broker (pid ${pid})`);
    if (alive(pid)) await stopPid(pid);
    rmSync(paths.pid, { force: true });
  }
  fetchBroker();
  writeConfig();
  formatStorage();

  say(`starting the broker at ${brokerAddress}...`);
  const started = Date.now();
  // Each start writes a log of its own, the one before kept as broker.previous.log: appended to across a day of test
  // runs it passed 500 MB, more than reading it for the ready line could hold (the start failed).
  if (existsSync(paths.log)) renameSync(paths.log, join(dirname(paths.log), 'broker.previous.log'));
  const offset = 0;
  const out = openSync(paths.log, 'w');
  const child = spawn(
    'java',
    [
      '-Xms256m',
      '-Xmx1g',
      '-XX:+UseG1GC',
      '-XX:MaxGCPauseMillis=20',
      '-XX:+ExitOnOutOfMemoryError',
      '-XX:TieredStopAtLevel=1',
      '-Djava.awt.headless=true',
      `-Dlog4j.configuration=file:${paths.log4j}`,
      '-cp',
      `${paths.lib}/*`,
      'kafka.Kafka',
      paths.props,
    ],
    { detached: true, stdio: ['ignore', out, out] },
  );
  child.unref();
  writeFileSync(paths.pid, String(child.pid));

  while (Date.now() - started < START_DEADLINE_MS) {
    if (!alive(child.pid)) {
      rmSync(paths.pid, { force: true });
      throw new Error(`the broker exited during start-up; last lines of ${paths.log}:\n${tail(offset)}`);
    }
    if (readFileSync(paths.log, 'utf8').slice(offset).includes(READY_LINE) && (await portOpen())) {
      say(`broker ready in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid}, log ${paths.log})`);
      return { brokers: brokerAddress, started: true };
    }
    await delay(200);
  }
  await stopPid(child.pid);
  throw new Error(`the broker was not ready within ${START_DEADLINE_MS / 1000} s; see ${paths.log}`);
}

function tail(offset) {
  return readFileSync(paths.log, 'utf8').slice(offset).split('\n').slice(-30).join('\n');
}

async function stopPid(pid) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + STOP_DEADLINE_MS;
  while (Date.now() < deadline && alive(pid)) await delay(200);
  if (alive(pid)) {
    say(`broker did not stop within ${STOP_DEADLINE_MS / 1000} s; killing it`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Stops the broker this tool started (controlled shutdown, then a hard kill after 30 s). */
export async function stopBroker() {
  const pid = readPid();
  if (!pid) {
    say('no broker started by this tool is running');
    return;
  }
  if (alive(pid)) {
    say(`stopping the broker (pid ${pid})...`);
    await stopPid(pid);
  }
  rmSync(paths.pid, { force: true });
  say('broker stopped');
}

/**
 * For a process that is exiting now and cannot wait: asks the broker this tool started to stop (SIGTERM, a controlled
 * shutdown it finishes on its own). The pid file stays until the next start or stop finds the broker gone.
 */
export function stopBrokerNow() {
  const pid = readPid();
  if (!pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

/** Deletes the broker's data (topics, offsets); the next start formats a fresh store. */
export async function resetBroker() {
  await stopBroker();
  rmSync(paths.data, { recursive: true, force: true });
  rmSync(paths.clusterId, { force: true });
  say('broker data deleted');
}

async function status() {
  const pid = readPid();
  const open = await portOpen();
  if (pid && alive(pid)) say(`running (pid ${pid}) at ${brokerAddress}, port ${open ? 'open' : 'not open yet'}`);
  else if (open) say(`a broker not started by this tool listens at ${brokerAddress}`);
  else say('not running');
  return open ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? 'status';
  const commands = {
    fetch: async () => fetchBroker(),
    start: async () => void (await startBroker()),
    stop: stopBroker,
    reset: resetBroker,
    status: async () => process.exit(await status()),
  };
  if (!commands[command]) {
    say(`unknown command "${command}"; use one of: ${Object.keys(commands).join(', ')}`);
    process.exit(2);
  }
  commands[command]().catch((err) => {
    say(err.message);
    process.exit(1);
  });
}
