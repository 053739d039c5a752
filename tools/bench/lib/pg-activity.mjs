// What PostgreSQL's backends are doing, sampled: every few milliseconds, the statements running on the run's database
// and what each waits on (pg_stat_activity). A profiler for the database side of a scenario where
// `pg_stat_statements` is not preloaded (as on this machine's PostgreSQL); the statements that show most often are the
// ones the backends spend their time in, running or waiting (`CPU` is neither waiting on I/O nor on a lock).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

/** A statement's first characters: enough to tell the platform's statements apart. */
const STATEMENT_CHARS = 140;

export class PgActivitySampler {
  /** Starts sampling the backends of `databaseUrl`'s database every `everyMs`; its own backend is never counted. */
  static async start(databaseUrl, { everyMs = 5 } = {}) {
    const client = new Client({ connectionString: databaseUrl });
    client.on('error', () => undefined);
    await client.connect();
    const pid = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    return new PgActivitySampler(client, pid, everyMs);
  }

  constructor(client, pid, everyMs) {
    this.client = client;
    /** The sampler's own backend: set it apart from the platform's CPU. */
    this.pid = pid;
    this.samples = 0;
    this.statements = new Map();
    this.waits = new Map();
    this.running = this.loop(everyMs);
  }

  async loop(everyMs) {
    this.active = true;
    while (this.active) {
      const { rows } = await this.client.query(
        `SELECT query, coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait FROM pg_stat_activity
         WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      this.samples++;
      for (const { query, wait } of rows) {
        const statement = query.replace(/\s+/g, ' ').trim().slice(0, STATEMENT_CHARS);
        this.statements.set(statement, (this.statements.get(statement) ?? 0) + 1);
        this.waits.set(wait, (this.waits.get(wait) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  /** Stops, and answers the samples taken, and the `top` statements and waits by how often they were seen. */
  async stop(top = 12) {
    this.active = false;
    await this.running;
    await this.client.end().catch(() => undefined);
    const ranked = (counts) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, top);
    const seen = [...this.waits.values()].reduce((sum, n) => sum + n, 0);
    return { samples: this.samples, seen, statements: ranked(this.statements), waits: ranked(this.waits) };
  }
}
