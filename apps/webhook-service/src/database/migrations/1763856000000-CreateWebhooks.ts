import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoints, the events they are sent (kept 7 days for replay), one delivery per endpoint and event, and every
 * attempt of a delivery. Columns for what comes next (secret rotation, disabling after days of failure, ordered
 * endpoints) exist from the start so those are behaviour changes, not migrations.
 */
export class CreateWebhooks1763856000000 implements MigrationInterface {
  name = 'CreateWebhooks1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE endpoints (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        url text NOT NULL,
        events jsonb NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        ordered boolean NOT NULL DEFAULT false,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        disabled_reason text,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Listing is newest first by id (ULIDs sort by time); fan-out reads a tenant's enabled endpoints.
    await q.query(`CREATE INDEX endpoints_tenant ON endpoints (tenant_id, id)`);

    // payload is json, not jsonb: json keeps the text byte for byte, so every attempt signs and sends the same body.
    await q.query(`
      CREATE TABLE events (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        type text NOT NULL,
        payload json NOT NULL,
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX events_tenant_time ON events (tenant_id, created_at)`);
    await q.query(`CREATE INDEX events_created ON events (created_at)`);

    await q.query(`
      CREATE TABLE deliveries (
        id text PRIMARY KEY,
        endpoint_id text NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
        event_id text NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
        attempt_count int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        last_status_code int,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT deliveries_endpoint_event UNIQUE (endpoint_id, event_id)
      )`);
    // The dispatcher's queue: due pending work, and what is in flight per endpoint (for the per-endpoint cap).
    await q.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX deliveries_in_flight ON deliveries (endpoint_id) WHERE status = 'pending' AND locked_until IS NOT NULL`);
    // Per-endpoint listing by status (newest first) and ordered delivery.
    await q.query(`CREATE INDEX deliveries_endpoint_status ON deliveries (endpoint_id, status, id)`);
    await q.query(`CREATE INDEX deliveries_event ON deliveries (event_id)`);

    await q.query(`
      CREATE TABLE delivery_attempts (
        delivery_id text NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
        attempt int NOT NULL,
        attempted_at timestamptz NOT NULL,
        status_code int,
        duration_ms int NOT NULL,
        error text,
        response_excerpt text,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE delivery_attempts`);
    await q.query(`DROP TABLE deliveries`);
    await q.query(`DROP TABLE events`);
    await q.query(`DROP TABLE endpoints`);
  }
}
