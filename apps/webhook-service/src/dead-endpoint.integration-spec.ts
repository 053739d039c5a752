import { conversationKey, type EventEnvelope } from '@parley/contracts';
import { KafkaHarness, pollUntil } from '@parley/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { MAX_IN_FLIGHT, PER_ENDPOINT_IN_FLIGHT } from './deliveries/delivery-dispatcher';
import { messageReceived } from './test/events';
import { startWebhookService, type WebhookServiceUnderTest } from './test/webhook-service-under-test';

/** Every attempt to a dead endpoint waits this long; healthy deliveries must not wait behind it. */
const TIMEOUT_MS = 5000;
/** Seconds before each retry: three attempts, then dead. */
const SCHEDULE = [1, 2];
/** Healthy deliveries per endpoint. */
const HEALTHY_EVENTS = 30;

/** A receiver that reads each request and never answers; counts requests, those open now and the most open at once. */
interface DeadReceiver {
  url: string;
  ids: string[];
  open: () => number;
  maxOpen: () => number;
}

describe('webhook-service: a dead endpoint beside healthy ones', () => {
  let service: WebhookServiceUnderTest;
  let kafka: KafkaHarness;
  let sql: DataSource;
  const servers: Server[] = [];
  const publish = (event: EventEnvelope) => kafka.publisher.publishEvent(event, conversationKey(event.tenant_id!, event.id), undefined, { timeoutMs: 10_000 });

  const deadReceiver = async (): Promise<DeadReceiver> => {
    const ids: string[] = [];
    let open = 0;
    let maxOpen = 0;
    const server = createServer((req, res) => {
      ids.push(String(req.headers['webhook-id']));
      open++;
      maxOpen = Math.max(maxOpen, open);
      req.resume();
      res.on('close', () => open--); // the service gave up (time-out) and closed the connection
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, ids, open: () => open, maxOpen: () => maxOpen };
  };

  beforeAll(async () => {
    service = await startWebhookService('webhookdead', { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(',') });
    ({ kafka, sql } = service);
  });

  afterAll(async () => {
    await service?.close();
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('delivers to healthy endpoints of the same and another tenant within one time-out of a dead endpoint with an older backlog', async () => {
    const dead = await deadReceiver();
    const deadEndpoint = await service.createEndpoint('ten_DA', { url: dead.url });
    const sameTenant = await service.receiver({ status: 204 });
    const otherTenant = await service.receiver({ status: 204 });
    await service.createEndpoint('ten_DA', { url: sameTenant.url, events: ['message.received'] });
    await service.createEndpoint('ten_DB', { url: otherTenant.url });

    // The dead endpoint's backlog: twice the process's slots, all due before anything the healthy endpoints get, so
    // a scheduler serving the oldest due work first without a per-endpoint share would fill every slot with it.
    const backlog = MAX_IN_FLIGHT * 2;
    await sql.query(
      `INSERT INTO events (id, tenant_id, type, payload, occurred_at)
       SELECT 'evt_deadbacklog' || lpad(g::text, 4, '0'), 'ten_DA', 'message.status', json_build_object('event', 'message.status', 'n', g), now()
       FROM generate_series(1, $1) g`,
      [backlog],
    );
    await sql.query(
      `INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, next_attempt_at)
       SELECT 'dlv_deadbacklog' || lpad(g::text, 4, '0'), $2, 'evt_deadbacklog' || lpad(g::text, 4, '0'), 'ten_DA', 'pending', now() - interval '1 minute'
       FROM generate_series(1, $1) g`,
      [backlog, deadEndpoint.id],
    );
    await pollUntil(() => dead.open() === PER_ENDPOINT_IN_FLIGHT, { description: 'the dead endpoint holding its share of the slots' });

    const startedAt = Date.now();
    const events = [
      ...Array.from({ length: HEALTHY_EVENTS }, () => messageReceived('ten_DA')),
      ...Array.from({ length: HEALTHY_EVENTS }, () => messageReceived('ten_DB')),
    ];
    await Promise.all(events.map(publish));
    const arrived = () => events.every((e) => (e.tenant_id === 'ten_DA' ? sameTenant : otherTenant).withId(e.id).length === 1);
    await pollUntil(arrived, { timeoutMs: 4 * TIMEOUT_MS, description: 'every healthy delivery' });
    const took = Date.now() - startedAt;

    // Within the dead endpoint's first round of attempts: a starved scheduler would deliver them only after time-outs.
    expect(took).toBeLessThan(TIMEOUT_MS);
    expect(dead.maxOpen()).toBeLessThanOrEqual(PER_ENDPOINT_IN_FLIGHT);

    // The dead endpoint is not starved either: its first round times out, is recorded and scheduled again, and the
    // next round of its backlog follows, never more than its share at once.
    await pollUntil(() => dead.ids.length >= 2 * PER_ENDPOINT_IN_FLIGHT, { timeoutMs: 4 * TIMEOUT_MS, description: 'a second round at the dead endpoint' });
    const [{ timedOut, retrying }] = (await sql.query(
      `SELECT count(*) FILTER (WHERE a.error LIKE 'timed out after %')::int AS "timedOut",
              count(DISTINCT d.id) FILTER (WHERE d.status = 'pending' AND d.attempt_count = 1 AND d.next_attempt_at IS NOT NULL)::int AS retrying
       FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id WHERE d.endpoint_id = $1`,
      [deadEndpoint.id],
    )) as { timedOut: number; retrying: number }[];
    expect(timedOut).toBeGreaterThanOrEqual(PER_ENDPOINT_IN_FLIGHT);
    expect(retrying).toBeGreaterThanOrEqual(PER_ENDPOINT_IN_FLIGHT);
    expect(dead.maxOpen()).toBeLessThanOrEqual(PER_ENDPOINT_IN_FLIGHT);
  });

  it('still attempts a dead endpoint’s deliveries and retries them on the schedule with the same webhook-id until dead', async () => {
    const dead = await deadReceiver();
    const endpoint = await service.createEndpoint('ten_DC', { url: dead.url });
    const events = [messageReceived('ten_DC'), messageReceived('ten_DC')];
    await Promise.all(events.map(publish));
    const attempts = SCHEDULE.length + 1;
    await pollUntil(
      async () => {
        const rows = await Promise.all(events.map((e) => service.deliveriesOf(e.id)));
        return rows.every(([row]) => row?.status === 'dead');
      },
      { timeoutMs: 2 * attempts * TIMEOUT_MS, description: 'both deliveries dead' },
    );

    for (const event of events) {
      expect(dead.ids.filter((id) => id === event.id)).toHaveLength(attempts);
      const rows = (await sql.query(
        `SELECT a.attempt, a.attempted_at, a.duration_ms, a.status_code, a.error
         FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
         WHERE d.event_id = $1 AND d.endpoint_id = $2 ORDER BY a.attempt`,
        [event.id, endpoint.id],
      )) as { attempt: number; attempted_at: Date; duration_ms: number; status_code: number | null; error: string }[];
      expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3]);
      for (const row of rows) {
        expect(row).toMatchObject({ status_code: null, error: expect.stringMatching(/^timed out after \d+ ms$/) });
        expect(row.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      }
      // Each retry waits its scheduled delay with full jitter (at least 1 s, at most the delay) after the failure,
      // plus at most a poll interval and some slack for a busy machine.
      for (let i = 1; i < rows.length; i++) {
        const failedAt = rows[i - 1].attempted_at.getTime() + rows[i - 1].duration_ms;
        const gap = rows[i].attempted_at.getTime() - failedAt;
        expect(gap).toBeGreaterThanOrEqual(1000 - 50);
        expect(gap).toBeLessThan(SCHEDULE[i - 1] * 1000 + 2500);
      }
    }
  });
});
