import { Client } from 'pg';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { PipeliningClient } from './pipelined-begin';
import { PreparingClient } from './prepared-statements';
import { StatementCountingLogger } from './statement-counter';

export interface ServiceDatabase {
  /** The service's own schema: every table it owns lives there, with its own `migrations` table. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
}

/** How a service talks to PostgreSQL beyond its URL. */
export interface DatabaseOptions {
  /** Statements run again go as named prepared statements (DATABASE_PREPARED_STATEMENTS; default on). */
  preparedStatements?: boolean;
}

/** Connections in each service's pool (sized for 2 cores); work that holds one for long should take fewer at once. */
export const DB_POOL_SIZE = 10;

/** TypeORM options of a service: its schema, migrations only (never synchronize), a pool sized for 2 cores. */
export function dataSourceOptions(url: string, db: ServiceDatabase, options: DatabaseOptions = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    schema: db.schema,
    entities: db.entities,
    migrations: db.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    logger: new StatementCountingLogger(['error']),
    // search_path makes the unqualified names of hand-written migrations land in the service's schema; the client
    // prepares the statements the service runs again (prepared-statements.ts) and sends a transaction's BEGIN with its
    // first statement (pipelined-begin.ts)
    extra: { Client: options.preparedStatements === false ? PipeliningClient : PreparingClient, max: DB_POOL_SIZE, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30000, application_name: db.schema, options: `-c search_path=${db.schema}` },
  };
}

/** What a service's database takes from its config (BaseConfig's settings). */
export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_PREPARED_STATEMENTS: boolean;
}

/** A running service's TypeORM options, from its config. */
export function serviceDataSourceOptions(config: DatabaseSettings, db: ServiceDatabase): DataSourceOptions {
  return dataSourceOptions(config.DATABASE_URL, db, { preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
}

/** Creates the database named in `url` when it does not exist (connecting to the server's `postgres` database). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
      if (err.code !== '42P04') throw err; // created concurrently
    });
  } finally {
    await client.end();
  }
}

/**
 * The migrate command of a service: database and schema if missing, then every pending migration. Instances started
 * together (a rollout's pods) take turns on a PostgreSQL advisory lock per schema: one applies, the others then find
 * the schema current. The lock is the session's, so a migrator that dies releases it with its connection.
 */
export async function runMigrations(url: string, db: ServiceDatabase): Promise<string[]> {
  await ensureDatabase(url);
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`parley.migrations.${db.schema}`]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS "${db.schema}"`);
    const dataSource = new DataSource(dataSourceOptions(url, db));
    await dataSource.initialize();
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await lock.end(); // ends the session, and with it the lock
  }
}
