import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Where the tests' real infrastructure is. The jest global setup (tools/testing/global-setup.mjs) puts the
 * addresses in the environment: testcontainers' Kafka and Postgres where a Docker engine exists, otherwise the
 * local broker (started by tools/kafka when needed) and the machine's PostgreSQL.
 */
export function testInfra(): { kafkaBrokers: string; postgresUrl: string; redisUrl: string } {
  return {
    kafkaBrokers: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
    postgresUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

/**
 * KAFKA_FETCH_MAX_WAIT_MS of the services tests start. Stopping a consumer waits for its fetch in flight, which the
 * broker holds up to this long when there is nothing to read: with kafkajs's 5 s every stop of a service took about
 * 4.5 s, and the integration specs stop services a few hundred times.
 */
export const TEST_FETCH_MAX_WAIT_MS = '250';

/** A unique, short name for this test's topics, groups and database. */
export function uniqueName(label: string): string {
  return `t_${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20)}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/**
 * A Kafka namespace (topic and group prefix) of its own, so tests sharing a broker never see each other's messages.
 * Recorded for the jest global teardown, which deletes the namespace's topics after the run.
 */
export function uniqueKafkaNamespace(label: string): string {
  const namespace = `${uniqueName(label)}.`;
  // the suite's own list: its topics are deleted when the suite ends (tools/testing/integration-environment.cjs)...
  const suite = globalThis as { __PARLEY_KAFKA_NAMESPACES__?: string[] };
  (suite.__PARLEY_KAFKA_NAMESPACES__ ??= []).push(namespace);
  // ...and the run's, for the global teardown to delete what a suite that died left
  const runDir = process.env.PARLEY_TEST_RUN_DIR;
  if (runDir) appendFileSync(join(runDir, 'namespaces'), `${namespace}\n`);
  return namespace;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test suite; `drop()` removes it. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const { postgresUrl } = testInfra();
  const name = uniqueName(label);
  const admin = new Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    // A test's data need not outlive a crash of PostgreSQL itself, so its commits do not wait for the WAL flush (the
    // integration tier: 769 -> 729 s on 2 cores); what the services do is unchanged.
    await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
