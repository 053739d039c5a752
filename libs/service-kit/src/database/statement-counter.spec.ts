import { DataSource } from 'typeorm';
import { register } from 'prom-client';
import { dataSourceOptions } from './database';
import { countStatements, statementKind } from './statement-counter';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function counted(): Promise<{ statements: number; transactions: number }> {
  const value = async (name: string) => (await register.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
  return { statements: await value('db_statements_total'), transactions: await value('db_transactions_total') };
}

describe('a service DataSource counts its PostgreSQL statements and transactions on /metrics', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(url, { schema: 'public', entities: [], migrations: [] })).initialize();
  });
  afterAll(() => dataSource.destroy());

  it('counts an autocommit statement as one of each, a transaction of two statements as four statements and one transaction', async () => {
    const before = await counted();
    await dataSource.query('SELECT 1');
    expect(await counted()).toEqual({ statements: before.statements + 1, transactions: before.transactions + 1 });

    await dataSource.transaction(async (manager) => {
      await manager.query('SELECT 1');
      await manager.query('SELECT 2');
    });
    // START TRANSACTION, two statements, COMMIT
    expect(await counted()).toEqual({ statements: before.statements + 5, transactions: before.transactions + 2 });
  });

  it("counts a piece of work's own statements, and what it schedules, but not others running meanwhile", async () => {
    let release!: () => void;
    const elsewhere = (async () => {
      await new Promise<void>((resolve) => (release = resolve));
      await dataSource.query('SELECT 1');
      await dataSource.query('SELECT 2');
    })();
    const counted = await countStatements(async () => {
      release(); // the other work's two statements run while this one's do
      await dataSource.query('SELECT 3');
      await new Promise<void>((resolve) => setImmediate(() => void dataSource.query('SELECT 4').then(() => resolve())));
    });
    await elsewhere;
    expect(counted).toBe(2);
  });

  it('the metrics page names both counters', async () => {
    const page = await register.metrics();
    expect(page).toMatch(/^db_statements_total \d+$/m);
    expect(page).toMatch(/^db_transactions_total \d+$/m);
  });
});

describe('statementKind', () => {
  it.each([
    ['INSERT INTO "messages" ("id", "body") VALUES ($1, $2)', 'INSERT messages'],
    ['  UPDATE deliveries SET status = $1 WHERE id = ANY($2)', 'UPDATE deliveries'],
    ['DELETE FROM outbox WHERE id IN (SELECT id FROM outbox LIMIT 10)', 'DELETE outbox'],
    ['SELECT id, balance FROM billing.wallets WHERE tenant_id = $1', 'SELECT billing.wallets'],
    ['WITH claimed AS (SELECT id FROM send_queue FOR UPDATE SKIP LOCKED) UPDATE send_queue SET x = 1', 'WITH UPDATE send_queue'],
    ['WITH input AS (SELECT * FROM unnest($1::text[])) INSERT INTO events SELECT * FROM input ON CONFLICT (id) DO UPDATE SET x = 1', 'WITH INSERT events'],
    ['WITH RECURSIVE due AS (SELECT id FROM deliveries) SELECT * FROM due', 'WITH SELECT deliveries'],
    ['SELECT (EXTRACT(EPOCH FROM min(lease_until) - now()) * 1000) AS ms FROM documents', 'SELECT documents'],
    ['SELECT * FROM unnest($1::text[]) AS t(id) JOIN messages m ON m.id = t.id', 'SELECT messages'],
    ['INSERT INTO "sandbox"."messages"("id") VALUES ($1)', 'INSERT sandbox.messages'],
    ['START TRANSACTION', 'BEGIN'],
    ['COMMIT', 'COMMIT'],
    ['SELECT 1', 'SELECT'],
    ['SELECT pg_notify($1, $2)', 'SELECT'],
  ])('%s is %s', (sql, kind) => {
    expect(statementKind(sql)).toBe(kind);
  });
});
