import { Client, type ClientConfig, type QueryResult } from 'pg';

/** A transaction's opening as TypeORM and our stores send it (`START TRANSACTION`, `BEGIN`, with an isolation level). */
const OPENING = /^\s*(?:BEGIN|START\s+TRANSACTION)(?:\s+ISOLATION\s+LEVEL\s+[A-Z ]+)?\s*;?\s*$/i;
/** A transaction's end. */
const ENDING = /^\s*(COMMIT|ROLLBACK|END)\s*;?\s*$/i;

/**
 * A pool client that sends a transaction's `BEGIN` in the same write as the transaction's first statement, instead of
 * alone and waiting for its answer (issue 33): on this machine a round trip wakes the backend and then the service,
 * and waking costs more than what either then does (docs/benchmarks.md, wake-ups per message). The driver's own
 * pipeline mode (node-postgres `pipeline: true`: a query is written at once, answers are matched in order) carries
 * the two; the caller is answered `BEGIN` at once, which is all PostgreSQL would have said.
 *
 * A transaction that ends before its first statement (a `COMMIT` or `ROLLBACK` straight after `BEGIN`) costs no round
 * trip at all. `BEGIN` itself cannot fail short of a lost connection, which fails the statement written with it too;
 * should it ever be refused, the statement's own result is not given: its error is `BEGIN`'s.
 */
export class PipeliningClient extends Client {
  /** The opening text answered but not yet sent. */
  private deferredOpening?: string;

  constructor(config?: string | ClientConfig) {
    super(typeof config === 'string' ? { connectionString: config, pipeline: true } : { ...config, pipeline: true });
  }

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const plain = typeof text === 'string' && (values === undefined || (Array.isArray(values) && values.length === 0)) && callback === undefined;
    if (plain && this.deferredOpening === undefined && OPENING.test(text)) {
      this.deferredOpening = text;
      return Promise.resolve(answered('BEGIN')) as never;
    }
    if (plain && this.deferredOpening !== undefined) {
      const ending = ENDING.exec(text)?.[1].toUpperCase();
      if (ending) {
        this.deferredOpening = undefined;
        return Promise.resolve(answered(ending === 'END' ? 'COMMIT' : ending)) as never;
      }
    }
    if (this.deferredOpening === undefined) return (super.query as (...a: unknown[]) => never)(...args);
    return this.openWith(this.deferredOpening, args) as never;
  }

  /** Writes the opening and the statement together (one write: the socket is corked around both). */
  private openWith(opening: string, args: unknown[]): unknown {
    this.deferredOpening = undefined;
    const stream = (this as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
    stream.cork();
    try {
      const opened = super.query(opening);
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (!(result instanceof Promise)) {
        // a callback or a submittable: it reports its own outcome; a failed opening failed the connection with it
        opened.catch(() => undefined);
        return result;
      }
      return Promise.all([opened, result]).then(([, own]) => own);
    } finally {
      stream.uncork();
    }
  }
}

/** What PostgreSQL answers a transaction command: no rows. */
function answered(command: string): QueryResult {
  return { command, rowCount: null, oid: 0, fields: [], rows: [] };
}
