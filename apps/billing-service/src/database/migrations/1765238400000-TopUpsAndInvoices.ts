import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Top-ups paid through the payment provider's Checkout Sessions, and monthly invoices. An invoice's number comes from a
 * counter row per tenant, taken under a row lock in the transaction that writes the invoice (a sequence would leave
 * gaps when a transaction rolls back), so each tenant's invoices are numbered 1, 2, 3, … without gaps.
 */
export class TopUpsAndInvoices1765238400000 implements MigrationInterface {
  name = 'TopUpsAndInvoices1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE top_ups (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        amount numeric(20, 6) NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        -- The provider's Checkout Session (null until the provider answered).
        session_id text UNIQUE,
        checkout_url text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')),
        -- The provider's event that paid it (the first one delivered; redeliveries change nothing).
        paid_by_event text,
        paid_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX top_ups_tenant ON top_ups (tenant_id, created_at)`);

    await q.query(`
      CREATE TABLE invoice_counters (
        tenant_id text PRIMARY KEY,
        last_number int NOT NULL DEFAULT 0 CHECK (last_number >= 0)
      )`);
    await q.query(`
      CREATE TABLE invoices (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        number int NOT NULL,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL CHECK (period_end > period_start),
        currency text NOT NULL,
        lines jsonb NOT NULL,
        total numeric(20, 6) NOT NULL,
        payments numeric(20, 6) NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, number),
        -- Periods of a tenant follow each other: one invoice per start.
        UNIQUE (tenant_id, period_start)
      )`);

    // A transaction's time is when it was posted (under its wallet's lock), not when its database transaction began: an
    // invoice that ends "now" under the same lock then sees every posting before its end and none after it.
    await q.query(`ALTER TABLE ledger_transactions ALTER COLUMN created_at SET DEFAULT clock_timestamp()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_transactions ALTER COLUMN created_at SET DEFAULT now()`);
    await q.query(`DROP TABLE invoices, invoice_counters, top_ups`);
  }
}
