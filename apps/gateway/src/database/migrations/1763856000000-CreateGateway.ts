import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateGateway1763856000000 implements MigrationInterface {
  name = 'CreateGateway1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tenants (
        id text PRIMARY KEY,
        name text NOT NULL,
        email text,
        plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro', 'enterprise')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE oauth_clients (
        client_id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_clients_tenant ON oauth_clients (tenant_id)`);
    await q.query(`
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        name text,
        key_hash text NOT NULL UNIQUE,
        key_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    // Listing a tenant's live keys, newest first (ids are ULIDs).
    await q.query(`CREATE INDEX api_keys_tenant_live ON api_keys (tenant_id, id DESC) WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE oauth_clients`);
    await q.query(`DROP TABLE tenants`);
  }
}
