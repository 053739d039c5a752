import { AsyncLocalStorage } from 'node:async_hooks';
import { AdvancedConsoleLogger, type QueryRunner } from 'typeorm';
import { Counter } from 'prom-client';

// Every statement a service sends to PostgreSQL, counted where TypeORM hands it to the driver and exposed on /metrics:
// `npm run bench -- cost` divides them by the messages carried, a measure of per-event database work that the
// machine's other load does not blur as CPU timings do. One counter increment per statement; no text is kept.
const statements = new Counter({ name: 'db_statements_total', help: 'Statements sent to PostgreSQL (START TRANSACTION and COMMIT included).' });
const statementsByKind = new Counter({
  name: 'db_statements_by_kind_total',
  help: 'Statements sent to PostgreSQL by kind: the verb and the table it acts on (statementKind).',
  labelNames: ['kind'],
});
const transactions = new Counter({
  name: 'db_transactions_total',
  help: 'PostgreSQL transactions: explicit ones (START TRANSACTION) and statements run outside any (autocommit).',
});

/** The tally of the work `countStatements` runs, found through its async context. */
const measured = new AsyncLocalStorage<{ statements: number }>();

/**
 * How many statements `work` sends to PostgreSQL, counted in its own async context (and what it schedules: a group
 * commit's flush): unlike the process-wide counter, a background loop or a consumer of the same process that runs
 * meanwhile is not counted, so a test of a path's statements holds on a busy machine.
 */
export async function countStatements(work: () => Promise<unknown>): Promise<number> {
  const tally = { statements: 0 };
  await measured.run(tally, work);
  return tally.statements;
}

/**
 * What a statement does, for counting: its verb and the table it acts on (`INSERT messages`, `UPDATE deliveries`,
 * `SELECT wallets`; a CTE by the first table it writes, `WITH UPDATE send_queue`, or reads; `BEGIN`, `COMMIT`). A few
 * dozen kinds per service, so the label stays small whatever the parameters or the length of an `IN` list.
 */
export function statementKind(sql: string): string {
  const text = sql.trimStart();
  const verb = /^\w+/.exec(text)?.[0].toUpperCase() ?? '?';
  if (verb === 'START') return 'BEGIN';
  if (verb === 'WITH') {
    const written = WRITES.exec(text);
    if (written) return `WITH ${written[1].toUpperCase()} ${unquoted(written[2])}`;
    const read = READS.exec(text);
    return read ? `WITH SELECT ${unquoted(read[1])}` : verb;
  }
  const target = (verb === 'SELECT' ? READS : TARGET_OF.get(verb))?.exec(text)?.[1];
  return target ? `${verb} ${unquoted(target)}` : verb;
}

/** A table's name, schema-qualified or not, quoted or not (`"sandbox"."messages"`). */
const TABLE = '((?:"?\\w+"?\\.)?"?\\w+"?)';
/** Where a statement of each verb names its table. */
const TARGET_OF = new Map<string, RegExp>([
  ['INSERT', new RegExp(`^INSERT\\s+INTO\\s+${TABLE}`, 'i')],
  ['UPDATE', new RegExp(`^UPDATE\\s+(?:ONLY\\s+)?${TABLE}`, 'i')],
  ['DELETE', new RegExp(`^DELETE\\s+FROM\\s+(?:ONLY\\s+)?${TABLE}`, 'i')],
]);
/** The first table a statement writes anywhere in it (not `ON CONFLICT … DO UPDATE SET`, nor `FOR [NO KEY] UPDATE`). */
const WRITES = new RegExp(`(?<!\\b(?:FOR|KEY)\\s+)\\b(INSERT|UPDATE|DELETE)\\s+(?:INTO\\s+|FROM\\s+)?(?!SET\\b)${TABLE}`, 'i');
/** The first table it reads: a FROM or JOIN naming a table, not a function (`FROM unnest($1)`, `EXTRACT(EPOCH FROM …)`). */
const READS = new RegExp(`\\b(?:FROM|JOIN)\\s+${TABLE}(?![\\w."]|\\s*\\()`, 'i');
const unquoted = (name: string) => name.replace(/"/g, '');

// Statement texts repeat: their kinds are remembered (bounded: texts with literal lists vary).
const kinds = new Map<string, string>();
const MAX_KINDS_REMEMBERED = 2_000;
function kindOf(sql: string): string {
  let kind = kinds.get(sql);
  if (kind === undefined) {
    if (kinds.size >= MAX_KINDS_REMEMBERED) kinds.clear();
    kind = statementKind(sql);
    kinds.set(sql, kind);
  }
  return kind;
}

/** TypeORM's console logger (errors only, as `logging` says) that also counts statements and transactions. */
export class StatementCountingLogger extends AdvancedConsoleLogger {
  override logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    statements.inc();
    statementsByKind.inc({ kind: kindOf(query) });
    const tally = measured.getStore();
    if (tally) tally.statements++;
    // startTransaction marks the runner active before it sends START TRANSACTION; COMMIT/ROLLBACK end that same one.
    if (query === 'START TRANSACTION' || !queryRunner?.isTransactionActive) transactions.inc();
    super.logQuery(query, parameters, queryRunner);
  }
}
