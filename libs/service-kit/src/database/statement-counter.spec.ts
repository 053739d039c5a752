import { DataSource } from 'typeorm';
import { register } from 'prom-client';
import { dataSourceOptions } from './database';
import { countStatements } from './statement-counter';

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
