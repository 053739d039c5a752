import { AsyncLocalStorage } from 'node:async_hooks';
import { AdvancedConsoleLogger, type QueryRunner } from 'typeorm';
import { Counter } from 'prom-client';

// Every statement a service sends to PostgreSQL, counted where TypeORM hands it to the driver and exposed on /metrics:
// `npm run bench -- cost` divides them by the messages carried, a measure of per-event database work that the
// machine's other load does not blur as CPU timings do. One counter increment per statement; no text is kept.
const statements = new Counter({ name: 'db_statements_total', help: 'Statements sent to PostgreSQL (START TRANSACTION and COMMIT included).' });
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

/** TypeORM's console logger (errors only, as `logging` says) that also counts statements and transactions. */
export class StatementCountingLogger extends AdvancedConsoleLogger {
  override logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    statements.inc();
    const tally = measured.getStore();
    if (tally) tally.statements++;
    // startTransaction marks the runner active before it sends START TRANSACTION; COMMIT/ROLLBACK end that same one.
    if (query === 'START TRANSACTION' || !queryRunner?.isTransactionActive) transactions.inc();
    super.logQuery(query, parameters, queryRunner);
  }
}
