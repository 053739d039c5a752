import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Stripe stand-in: Checkout Sessions as Stripe answers them, and the webhook events owed to the configured endpoint
 * (kept until it answers 2xx, retried with back-off as Stripe does; `due_at` is both the schedule and a claim's lease).
 */
export class CreateStripeCheckout1765238400000 implements MigrationInterface {
  name = 'CreateStripeCheckout1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE stripe_checkout_sessions (
        id text PRIMARY KEY,
        session jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE stripe_events (
        id text PRIMARY KEY,
        session_id text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        due_at timestamptz,
        attempts int NOT NULL DEFAULT 0,
        delivered_at timestamptz,
        last_status int,
        last_error text,
        give_up_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX stripe_events_due ON stripe_events (due_at) WHERE due_at IS NOT NULL`);
    await q.query(`CREATE INDEX stripe_events_session ON stripe_events (session_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE stripe_events, stripe_checkout_sessions`);
  }
}
