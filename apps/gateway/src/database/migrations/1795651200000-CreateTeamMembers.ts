import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Team members, their single-use link tokens and their sign-in sessions (CONTRACT.md §12). */
export class CreateTeamMembers1795651200000 implements MigrationInterface {
  name = 'CreateTeamMembers1795651200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE members (
        id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(email)),
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'agent')),
        status text NOT NULL CHECK (status IN ('invited', 'active')),
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, email)
      )`);
    // Sign-in looks a member up by email across tenants; the team list pages by id within a tenant (the unique index
    // above leads with tenant_id, but orders by email).
    await q.query(`CREATE INDEX members_email ON members (email)`);
    await q.query(`CREATE INDEX members_tenant ON members (tenant_id, id DESC)`);
    await q.query(`
      CREATE TABLE member_tokens (
        token_hash text PRIMARY KEY,
        member_id text NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('invite', 'password_reset')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX member_tokens_member ON member_tokens (member_id)`);
    await q.query(`
      CREATE TABLE member_sessions (
        id text PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        member_id text NOT NULL REFERENCES members(id) ON DELETE CASCADE,
        tenant_id text NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX member_sessions_member ON member_sessions (member_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE member_sessions`);
    await q.query(`DROP TABLE member_tokens`);
    await q.query(`DROP TABLE members`);
  }
}
