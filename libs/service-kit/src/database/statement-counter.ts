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

/** TypeORM's console logger (errors only, as `logging` says) that also counts statements and transactions. */
export class StatementCountingLogger extends AdvancedConsoleLogger {
  override logQuery(query: string, parameters?: unknown[], queryRunner?: QueryRunner): void {
    statements.inc();
    // startTransaction marks the runner active before it sends START TRANSACTION; COMMIT/ROLLBACK end that same one.
    if (query === 'START TRANSACTION' || !queryRunner?.isTransactionActive) transactions.inc();
    super.logQuery(query, parameters, queryRunner);
  }
}
