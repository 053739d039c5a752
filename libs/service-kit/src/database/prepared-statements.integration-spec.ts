import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './database';

// The pool's client on the real PostgreSQL (the tier's, as the jest global setup names it): what it prepares, on which
// connection, and a plan gone stale. In a schema of the suite's own (libs/testing's helpers depend on this lib).
describe('PreparingClient (dataSourceOptions)', () => {
  const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const schema = `prepared_${randomBytes(4).toString('hex')}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    const options = dataSourceOptions(url, { schema, entities: [], migrations: [] });
    // one connection, so every statement below runs on the backend whose prepared statements are read
    dataSource = new DataSource({ ...options, extra: { ...(options.extra as object), max: 1 } } as typeof options);
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA "${schema}"`);
    await dataSource.query('CREATE TABLE notes (id int PRIMARY KEY, body text)');
  });

  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  const prepared = async () =>
    (await dataSource.query<{ statement: string }[]>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'parley%'`)).map((r) => r.statement);

  it('prepares a statement with parameters from its second run on, and runs it from the prepared plan after', async () => {
    const insert = 'INSERT INTO notes (id, body) VALUES ($1, $2) RETURNING id, body';
    expect(await dataSource.query(insert, [1, 'one'])).toEqual([{ id: 1, body: 'one' }]);
    expect(await prepared()).not.toContain(insert);
    expect(await dataSource.query(insert, [2, 'two'])).toEqual([{ id: 2, body: 'two' }]);
    expect(await dataSource.query(insert, [3, 'three'])).toEqual([{ id: 3, body: 'three' }]);
    expect(await prepared()).toContain(insert);
    // a text without parameters is never prepared (BEGIN, COMMIT, DDL, several statements in one)
    await dataSource.query('SELECT count(*) FROM notes');
    await dataSource.query('SELECT count(*) FROM notes');
    expect(await prepared()).not.toContain('SELECT count(*) FROM notes');
    // in a transaction, as the stores run them
    await dataSource.transaction(async (manager) => {
      await manager.query(insert, [4, 'four']);
      await manager.query('UPDATE notes SET body = $2 WHERE id = $1', [4, 'FOUR']);
    });
    expect(await dataSource.query('SELECT body FROM notes WHERE id = $1', [4])).toEqual([{ body: 'FOUR' }]);
  });

  it('prepares nothing when switched off (DATABASE_PREPARED_STATEMENTS=false, for a pooler that cannot carry them)', async () => {
    const options = dataSourceOptions(url, { schema, entities: [], migrations: [] }, { preparedStatements: false });
    const plain = await new DataSource({ ...options, extra: { ...(options.extra as object), max: 1 } } as typeof options).initialize();
    try {
      const count = 'SELECT count(*)::int AS n FROM notes WHERE id > $1';
      for (let i = 0; i < 3; i++) expect(await plain.query(count, [0])).toEqual([{ n: 4 }]);
      expect(await plain.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).toEqual([{ n: 0 }]);
    } finally {
      await plain.destroy();
    }
  });

  it('runs a statement whose prepared plan went stale (its table gained a column) unnamed after the one failure', async () => {
    const read = 'SELECT * FROM notes WHERE id = $1';
    await dataSource.query(read, [1]);
    expect(await dataSource.query(read, [1])).toEqual([{ id: 1, body: 'one' }]);
    await dataSource.query('ALTER TABLE notes ADD COLUMN tag text');
    await expect(dataSource.query(read, [1])).rejects.toMatchObject({ driverError: { code: '0A000' } });
    expect(await dataSource.query(read, [1])).toEqual([{ id: 1, body: 'one', tag: null }]);
    expect(await dataSource.query(read, [2])).toEqual([{ id: 2, body: 'two', tag: null }]);
  });
});
