import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Client } from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { dataSourceOptions } from './database';

// A transaction's BEGIN written with its first statement (PipeliningClient), on the real PostgreSQL: what reaches the
// socket, and that the transaction is as real as before (isolated, rolled back, ended by an error).
describe('PipeliningClient (dataSourceOptions)', () => {
  const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const schema = `pipelined_${randomBytes(4).toString('hex')}`;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(url, { schema, entities: [], migrations: [] })).initialize();
    await dataSource.query(`CREATE SCHEMA "${schema}"`);
    await dataSource.query('CREATE TABLE notes (id int PRIMARY KEY, body text)');
  });

  afterAll(async () => {
    await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await dataSource?.destroy();
  });

  /** A query runner on a connection of its own, and every write that leaves its socket from now on. */
  async function watchedRunner(): Promise<{ runner: QueryRunner; writes: string[][] }> {
    const runner = dataSource.createQueryRunner();
    const client = (await runner.connect()) as Client & { connection: { stream: Socket } };
    const socket = client.connection.stream as unknown as { _write: (chunk: unknown, ...rest: unknown[]) => void; _writev: (chunks: { chunk: unknown }[], ...rest: unknown[]) => void };
    const writes: string[][] = [];
    // One call of _write or _writev is one write to the kernel; the texts are the protocol messages' readable bytes.
    const readable = (chunk: unknown) => Buffer.from(chunk as Buffer).toString('latin1').replace(/[^\x20-\x7e]+/g, ' ');
    const write = socket._write.bind(socket);
    const writev = socket._writev.bind(socket);
    socket._write = (chunk: unknown, ...rest: unknown[]) => (writes.push([readable(chunk)]), write(chunk, ...rest));
    socket._writev = (chunks: { chunk: unknown }[], ...rest: unknown[]) => (writes.push(chunks.map((c) => readable(c.chunk))), writev(chunks, ...rest));
    return { runner, writes };
  }

  /** Releases the runner, out of any transaction a failed expectation left open. */
  async function ended(runner: QueryRunner): Promise<void> {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    await runner.release();
  }

  it('writes BEGIN with the first statement, one write for both, and answers the caller at once', async () => {
    const { runner, writes } = await watchedRunner();
    try {
      await runner.startTransaction();
      expect(writes).toEqual([]);
      await runner.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'one']);
      await runner.query('UPDATE notes SET body = $2 WHERE id = $1', [1, 'ONE']);
      await runner.commitTransaction();
      expect(writes).toHaveLength(3);
      expect(writes[0].join(' ')).toMatch(/START TRANSACTION.*INSERT INTO notes/);
      expect(writes[1].join(' ')).toContain('UPDATE notes');
      expect(writes[2].join(' ')).toContain('COMMIT');
    } finally {
      await ended(runner);
    }
    expect(await dataSource.query('SELECT body FROM notes WHERE id = $1', [1])).toEqual([{ body: 'ONE' }]);
  });

  it('keeps the transaction a transaction: unseen by others until COMMIT, gone after ROLLBACK', async () => {
    const { runner } = await watchedRunner();
    try {
      await runner.startTransaction();
      await runner.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [2, 'two']);
      expect(await dataSource.query('SELECT count(*)::int AS n FROM notes WHERE id = $1', [2])).toEqual([{ n: 0 }]);
      expect(await runner.query('SELECT count(*)::int AS n FROM notes WHERE id = $1', [2])).toEqual([{ n: 1 }]);
      await runner.rollbackTransaction();
    } finally {
      await ended(runner);
    }
    expect(await dataSource.query('SELECT count(*)::int AS n FROM notes WHERE id = $1', [2])).toEqual([{ n: 0 }]);
  });

  it('sends nothing for a transaction that ends before its first statement, committed or rolled back', async () => {
    const { runner, writes } = await watchedRunner();
    try {
      await runner.startTransaction();
      await runner.commitTransaction();
      await runner.startTransaction();
      await runner.rollbackTransaction();
      expect(writes).toEqual([]);
      // and the connection is not left in a transaction: a statement after them commits on its own
      await runner.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [3, 'three']);
    } finally {
      await ended(runner);
    }
    expect(await dataSource.query('SELECT body FROM notes WHERE id = $1', [3])).toEqual([{ body: 'three' }]);
  });

  it('fails the transaction whose first statement is refused, and the connection serves the next one', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'a duplicate']);
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [4, 'four']);
        await manager.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'a duplicate']);
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505' } });
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [5, 'five']);
    });
    expect(await dataSource.query('SELECT id FROM notes WHERE id = ANY($1) ORDER BY id', [[4, 5]])).toEqual([{ id: 5 }]);
  });

  it('runs statements queued together on one connection in order, each with its own answer (pipeline mode)', async () => {
    await dataSource.transaction(async (manager) => {
      const answers = await Promise.all([1, 2, 3].map((n) => manager.query('SELECT $1::int AS n', [n])));
      expect(answers).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
    });
  });
});
