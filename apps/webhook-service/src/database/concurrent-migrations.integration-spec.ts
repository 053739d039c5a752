import { runMigrations } from '@parley/service-kit';
import { createTestDatabase, type TestDatabase } from '@parley/testing';
import { Client } from 'pg';
import { webhookServiceDatabase } from './webhook-service.database';

// Instances started together (the pods of a first Kubernetes rollout, `docker compose up --scale`) each run the
// migrate command on a fresh database: one applies the migrations, the others wait for it and find the schema current.
describe('runMigrations by several instances at once', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('migrationrace');
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('applies each migration once, and every instance succeeds', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => runMigrations(db.url, webhookServiceDatabase)));
    const applied = runs.filter((names) => names.length > 0);
    expect(applied).toHaveLength(1);
    expect(runs.filter((names) => names.length === 0)).toHaveLength(2);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT name FROM "${webhookServiceDatabase.schema}".migrations ORDER BY id`);
      expect(rows.map((r: { name: string }) => r.name)).toEqual(applied[0]);
    } finally {
      await client.end();
    }
  }, 60_000);
});
