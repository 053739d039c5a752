import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Metering, the price book and each tenant's wallet on a double-entry ledger. Money is `numeric` throughout.
 *
 * The ledger is the truth: `ledger_entries` are append-only, every transaction's entries sum to zero (checked when the
 * database transaction commits), and the wallet's cached `balance`/`held` are moved only by the trigger that inserts
 * entries, in the same database transaction, so the cache cannot drift from the sum of the ledger. The CHECKs on
 * `wallets` make an overdraw fail the whole transaction.
 */
export class CreateBilling1765065600000 implements MigrationInterface {
  name = 'CreateBilling1765065600000';

  async up(q: QueryRunner): Promise<void> {
    // Every consumed event's id, written in the transaction of its effect: a redelivered event changes nothing.
    await q.query(`
      CREATE TABLE processed_events (
        event_id text PRIMARY KEY,
        processed_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE usage_daily (
        tenant_id text NOT NULL,
        day date NOT NULL,
        channel text NOT NULL,
        category text NOT NULL,
        quantity numeric(20, 6) NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, day, channel, category)
      )`);

    // A template send is priced by the template's category; template.status events say which category a template is.
    await q.query(`
      CREATE TABLE template_categories (
        tenant_id text NOT NULL,
        name text NOT NULL,
        language text NOT NULL,
        category text NOT NULL,
        PRIMARY KEY (tenant_id, name, language)
      )`);

    await q.query(`
      CREATE TABLE prices (
        plan text NOT NULL,
        category text NOT NULL,
        unit_price numeric(20, 6) NOT NULL CHECK (unit_price >= 0),
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (plan, category)
      )`);
    await q.query(`
      INSERT INTO prices (plan, category, unit_price, currency) VALUES
        ('free', 'service', 0.005, 'USD'), ('free', 'utility', 0.02, 'USD'), ('free', 'authentication', 0.02, 'USD'),
        ('free', 'marketing', 0.05, 'USD'),
        ('pro', 'service', 0.004, 'USD'), ('pro', 'utility', 0.015, 'USD'), ('pro', 'authentication', 0.015, 'USD'),
        ('pro', 'marketing', 0.04, 'USD'),
        ('enterprise', 'service', 0.003, 'USD'), ('enterprise', 'utility', 0.012, 'USD'),
        ('enterprise', 'authentication', 0.012, 'USD'), ('enterprise', 'marketing', 0.035, 'USD')`);

    await q.query(`
      CREATE TABLE wallets (
        tenant_id text PRIMARY KEY,
        plan text NOT NULL DEFAULT 'free',
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        balance numeric(20, 6) NOT NULL DEFAULT 0 CHECK (balance >= 0),
        held numeric(20, 6) NOT NULL DEFAULT 0 CHECK (held >= 0),
        low_balance_threshold numeric(20, 6) NOT NULL CHECK (low_balance_threshold >= 0),
        below_threshold boolean NOT NULL DEFAULT false,
        view_version bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE ledger_transactions (
        id text PRIMARY KEY,
        -- The order transactions were posted in (ids made in one millisecond need not sort by time).
        seq bigserial NOT NULL,
        tenant_id text NOT NULL REFERENCES wallets(tenant_id),
        kind text NOT NULL CHECK (kind IN ('top_up', 'hold', 'settlement', 'release', 'refund', 'adjustment')),
        amount numeric(20, 6) NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        cause_id text NOT NULL,
        description text,
        balance_after numeric(20, 6) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ledger_transactions_once UNIQUE (tenant_id, kind, cause_id)
      )`);
    await q.query(`CREATE INDEX ledger_transactions_tenant ON ledger_transactions (tenant_id, seq)`);

    // wallet: what the tenant can spend; holds: reserved for accepted sends; revenue, funding, adjustments: the other side.
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        transaction_id text NOT NULL REFERENCES ledger_transactions(id),
        tenant_id text NOT NULL,
        account text NOT NULL CHECK (account IN ('wallet', 'holds', 'revenue', 'funding', 'adjustments')),
        amount numeric(20, 6) NOT NULL CHECK (amount <> 0),
        currency text NOT NULL
      )`);
    await q.query(`CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id)`);
    await q.query(`CREATE INDEX ledger_entries_tenant_account ON ledger_entries (tenant_id, account)`);

    await q.query(`
      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger entries are append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`);

    // The wallet's cached balance moves with its entries, in the same transaction (the CHECKs refuse an overdraw).
    await q.query(`
      CREATE FUNCTION ledger_entries_move_wallet() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('billing.ledger_posting', 'on', true);
        IF NEW.account = 'wallet' THEN
          UPDATE wallets SET balance = balance + NEW.amount, updated_at = now() WHERE tenant_id = NEW.tenant_id;
        ELSIF NEW.account = 'holds' THEN
          UPDATE wallets SET held = held + NEW.amount, updated_at = now() WHERE tenant_id = NEW.tenant_id;
        END IF;
        PERFORM set_config('billing.ledger_posting', '', true);
        RETURN NEW;
      END $$`);
    // ...and only then: any other write of the cached amounts is refused, so the cache cannot drift from the ledger.
    await q.query(`
      CREATE FUNCTION wallets_amounts_follow_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (TG_OP = 'INSERT' AND (NEW.balance <> 0 OR NEW.held <> 0))
           OR (TG_OP = 'UPDATE' AND (NEW.balance IS DISTINCT FROM OLD.balance OR NEW.held IS DISTINCT FROM OLD.held)
               AND coalesce(current_setting('billing.ledger_posting', true), '') <> 'on') THEN
          RAISE EXCEPTION 'a wallet''s balance moves only with ledger entries';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER wallets_amounts_follow_ledger BEFORE INSERT OR UPDATE ON wallets
        FOR EACH ROW EXECUTE FUNCTION wallets_amounts_follow_ledger()`);
    await q.query(`
      CREATE TRIGGER ledger_entries_move_wallet AFTER INSERT ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_move_wallet()`);

    // Double entry: checked at commit, once all of a transaction's entries are in.
    await q.query(`
      CREATE FUNCTION ledger_transaction_balances() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE total numeric;
      BEGIN
        SELECT coalesce(sum(amount), 0) INTO total FROM ledger_entries WHERE transaction_id = NEW.transaction_id;
        IF total <> 0 THEN
          RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.transaction_id, total;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER ledger_transaction_balances AFTER INSERT ON ledger_entries
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances()`);

    // One row per metered outbound message: what it costs and where its money is (held, settled, released).
    await q.query(`
      CREATE TABLE charges (
        message_id text PRIMARY KEY,
        tenant_id text NOT NULL,
        channel text,
        category text,
        price numeric(20, 6),
        currency text,
        state text NOT NULL CHECK (state IN ('awaiting_send', 'free', 'unfunded', 'held', 'settled', 'released', 'refunded')),
        outcome text CHECK (outcome IN ('sent', 'failed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Events this service publishes, written in the transaction that decided them (published, then deleted).
    await q.query(`
      CREATE TABLE outbox (
        id text PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        envelope jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbox, charges, ledger_entries, ledger_transactions, wallets, prices, template_categories, usage_daily, processed_events`);
    await q.query(`DROP FUNCTION ledger_entries_append_only(), ledger_entries_move_wallet(), ledger_transaction_balances(), wallets_amounts_follow_ledger()`);
  }
}
