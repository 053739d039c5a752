'use strict';
// Whether the local infrastructure answers (PostgreSQL, Redis, a Kafka broker) and what to say when it does not.
// Shared by `npm start` and `npm test` (through runner.mjs) and the tools that run stacks of their own (bench, chaos,
// soak, fuzz). Plain CommonJS on Node built-ins only: it runs before the install, and jest loads it as it is.
const net = require('node:net');

/** An error carrying what to do about it (`hint`), which runner.mjs's steps and the tools print after it. */
function withHint(message, hint) {
  return Object.assign(new Error(message), { hint });
}

/** Resolves undefined when `host:port` accepts a TCP connection, else why not (`ECONNREFUSED`, `timed out`, …). */
function tcpCheck(host, port, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (error) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(timeoutMs, () => done('timed out'));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err) => done(err.code ?? err.message));
  });
}

/** PING over the Redis protocol (RESP), so this needs no client library. Resolves undefined on PONG, else why not. */
function redisPing(url, timeoutMs = 2000) {
  const { hostname, port, password, username } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    let reply = '';
    const done = (error) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(timeoutMs, () => done('timed out'));
    socket.once('error', (err) => done(err.code ?? err.message));
    socket.once('connect', () => {
      const auth = password ? `AUTH ${username ? `${decodeURIComponent(username)} ` : ''}${decodeURIComponent(password)}\r\n` : '';
      socket.write(`${auth}PING\r\n`);
    });
    socket.on('data', (d) => {
      reply += d;
      if (reply.includes('+PONG')) done(undefined);
      else if (reply.startsWith('-') || reply.includes('\r\n-')) done(reply.trim().split('\r\n').pop());
    });
  });
}

/**
 * PostgreSQL (`env.DATABASE_URL`) and Redis (`env.REDIS_URL`) must already run on this machine: resolves a short
 * description of both, or rejects with one line per missing server saying how to fix it. `tcp` and `redis` replace the
 * network checks in tests; `postgresSetting` names where the PostgreSQL address came from, when not DATABASE_URL.
 */
async function checkInfrastructure(env, { tcp = tcpCheck, redis = redisPing, postgresSetting } = {}) {
  const pg = new URL(env.DATABASE_URL);
  const pgHost = pg.hostname;
  const pgPort = Number(pg.port || 5432);
  const problems = [];
  const pgError = await tcp(pgHost, pgPort);
  if (pgError) {
    problems.push(
      `PostgreSQL is not reachable at ${pgHost}:${pgPort} (${pgError}). Start it (e.g. \`sudo service postgresql start\`), ` +
        `or set ${postgresSetting ?? 'DATABASE_URL in .env'} to a server you can reach (the user needs the right to create a database).`,
    );
  }
  const redisError = await redis(env.REDIS_URL);
  if (redisError) {
    const { hostname, port } = new URL(env.REDIS_URL);
    problems.push(
      `Redis is not reachable at ${hostname}:${port || 6379} (${redisError}). Start it (e.g. \`sudo service redis-server start\` ` +
        'or `redis-server --daemonize yes`), or set REDIS_URL in .env.',
    );
  }
  if (problems.length > 0) throw Object.assign(withHint(problems.join('\n'), 'fix the above, then run the command again.'), { problems });
  return `PostgreSQL at ${pgHost}:${pgPort}, Redis at ${new URL(env.REDIS_URL).host}`;
}

/**
 * The broker a command runs on. KAFKA_BROKERS unset or naming the local broker's address (tools/kafka's
 * `brokerAddress`): that one, started with `kafka.startBroker()` unless it already runs. Any other address: used as it
 * is when it answers; when nothing answers there, a rejection whose message and hint say what to do, instead of the
 * screen of connection errors the services would print. Resolves `{ brokers, started }`: `started` means the caller
 * launched the local broker, so it stops it again at its end.
 * @param {Record<string, string | undefined>} env the merged settings (stack.loadEnv(): .env.example, .env, environment)
 * @param {object} deps
 * @param {{ brokerAddress: string, startBroker: () => Promise<{ brokers: string, started: boolean }> }} deps.kafka tools/kafka/kafka.mjs
 * @param {Record<string, string | undefined>} [deps.processEnv] the environment alone, to name where KAFKA_BROKERS came from
 * @param {(host: string, port: number) => Promise<string | undefined>} [deps.probe] tcpCheck
 */
async function ensureKafka(env, { kafka, processEnv = process.env, probe = tcpCheck }) {
  const wanted = env.KAFKA_BROKERS || kafka.brokerAddress;
  if (wanted !== kafka.brokerAddress) {
    const [host, port] = wanted.split(',')[0].trim().split(':');
    const error = await probe(host, Number(port || 9092));
    if (!error) return { brokers: wanted, started: false };
    const fromEnvironment = Boolean(processEnv.KAFKA_BROKERS);
    throw withHint(
      `no Kafka broker answers at ${wanted} (KAFKA_BROKERS${fromEnvironment ? '' : ' in .env'}: ${error})`,
      `start one there, or ${fromEnvironment ? 'unset KAFKA_BROKERS' : 'remove KAFKA_BROKERS from .env'} to run on the local broker ` +
        '(started for you when it is not running, as `npm run kafka:start` does).',
    );
  }
  try {
    return await kafka.startBroker();
  } catch (err) {
    throw withHint(
      `the local Kafka broker could not start: ${err.message}`,
      'the broker needs a JDK 17+ (`java`) and, on the first run, Maven (`mvn`) with access to Maven Central. ' +
        'Check `java -version` and `mvn -v`; the broker log is .kafka/broker.log. `npm run kafka:status` shows its state.',
    );
  }
}

/**
 * What a tool prints when the infrastructure is missing: one line per problem, each saying what to do (a failed
 * broker start's log tail is left to .kafka/broker.log, which the line names).
 */
function toolLines(tool, err) {
  if (err?.problems) return err.problems.map((p) => `${tool}: ${p}`);
  const message = String(err?.message ?? err).split('\n')[0].replace(/[.:]\s*$/, '');
  const hint = err?.hint ? ` ${err.hint.charAt(0).toUpperCase()}${err.hint.slice(1)}` : '';
  return [`${tool}: ${message}.${hint}`];
}

module.exports = { withHint, tcpCheck, redisPing, checkInfrastructure, ensureKafka, toolLines };
