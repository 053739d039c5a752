import { newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
import { Client } from 'pg';
import { countStatements } from '@parley/service-kit';
import { messageReceived } from '../test/events';
import { startWebhookService, type WebhookServiceUnderTest } from '../test/webhook-service-under-test';
import { DELIVERIES_CHANNEL, DeliveriesStore, type IncomingEvent } from './deliveries.store';
import { EventRetention } from './event-retention';


const incoming = (tenantId: string): IncomingEvent => {
  const event = messageReceived(tenantId);
  return { id: event.id, tenantId, type: event.type, body: JSON.stringify(event.data), occurredAt: new Date(), orderingKey: `${tenantId}:conversation` };
};

/** Issue 19: a batch of events is stored with its deliveries in one statement, ids sorting in the events' order. */
describe('DeliveriesStore.ingestMany', () => {
  let service: WebhookServiceUnderTest;
  let store: DeliveriesStore;
  beforeAll(async () => {
    service = await startWebhookService('ingest');
    store = service.app.get(DeliveriesStore);
  }, 120_000);
  afterAll(() => service?.close());

  it('stores a batch no endpoint subscribes to in one statement', async () => {
    const events = [incoming(newId('ten')), incoming(newId('ten')), incoming(newId('ten'))];
    let ingested: number[] = [];
    expect(await countStatements(async () => (ingested = await store.ingestMany(events)))).toBe(1);
    expect(ingested).toEqual([0, 0, 0]);
    const stored = (await service.sql.query(`SELECT id FROM events WHERE id = ANY($1) ORDER BY id`, [events.map((e) => e.id)])) as { id: string }[];
    expect(stored).toHaveLength(3);
  });

  it('creates one delivery per subscribed endpoint, ids shaped like newId and sorting in the batch order; once per event', async () => {
    const tenantId = newId('ten');
    // Disabled at first: their events get no delivery.
    const endpoints = await Promise.all([1, 2].map((n) => service.createEndpoint(tenantId, { url: `http://127.0.0.1:9/${n}`, events: ['message.received'], ordered: true, enabled: false })));
    const events = Array.from({ length: 5 }, () => incoming(tenantId));
    expect(await store.ingestMany(events)).toEqual([0, 0, 0, 0, 0]);

    await service.sql.query(`UPDATE endpoints SET enabled = true WHERE tenant_id = $1`, [tenantId]);
    const later = Array.from({ length: 5 }, () => incoming(tenantId));
    expect(await store.ingestMany(later)).toEqual([2, 2, 2, 2, 2]);
    for (const endpoint of endpoints) {
      const rows = (await service.sql.query(`SELECT id, event_id FROM deliveries WHERE endpoint_id = $1 ORDER BY id`, [endpoint.id])) as { id: string; event_id: string }[];
      expect(rows.map((r) => r.event_id)).toEqual(later.map((e) => e.id));
      for (const row of rows) expect(row.id).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);
    }
    expect(await store.ingestMany(later)).toEqual([0, 0, 0, 0, 0]);
  });

  it('wakes the dispatchers (NOTIFY) for a batch that created deliveries, never for one that created none', async () => {
    const listener = new Client({ connectionString: service.config.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => {
      if (n.channel === DELIVERIES_CHANNEL) heard.push(n.payload ?? '');
    });
    try {
      await listener.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      expect(await store.ingestMany([incoming(newId('ten')), incoming(newId('ten'))])).toEqual([0, 0]);
      const tenantId = newId('ten');
      await service.createEndpoint(tenantId, { url: 'http://127.0.0.1:9/hook', events: ['message.received'], ordered: false, enabled: true });
      expect(await store.ingestMany([incoming(tenantId)])).toEqual([1]);
      // Notifications arrive in commit order: once a marker sent after both batches is heard, theirs have been.
      await service.sql.query(`SELECT pg_notify($1, 'marker')`, [DELIVERIES_CHANNEL]);
      await pollUntil(async () => heard.includes('marker'), { description: 'the marker notification', timeoutMs: 10_000 });
      expect(heard).toEqual(['', 'marker']);
    } finally {
      await listener.end();
    }
  });
});

/** CONTRACT.md §5: events are kept for replay 7 days; the retention worker purges older ones, never one still owed. */
describe('EventRetention', () => {
  let service: WebhookServiceUnderTest;
  beforeAll(async () => {
    service = await startWebhookService('retention');
  }, 120_000);
  afterAll(() => service?.close());

  it('purges events past the replay window with their finished deliveries, keeping recent ones and any still being delivered', async () => {
    const tenantId = newId('ten');
    const endpoint = await service.createEndpoint(tenantId, { url: 'http://127.0.0.1:9/hook', events: ['message.received'], enabled: false });
    const [agedOut, agedDelivered, agedOwed, recent] = [incoming(tenantId), incoming(tenantId), incoming(tenantId), incoming(tenantId)];
    await service.app.get(DeliveriesStore).ingestMany([agedOut, agedDelivered, agedOwed, recent]);
    await service.sql.query(`UPDATE events SET created_at = now() - interval '8 days' WHERE id = ANY($1)`, [[agedOut.id, agedDelivered.id, agedOwed.id]]);
    // Deliveries written as the dispatcher leaves them: one succeeded, one pending with its next attempt far off.
    await service.sql.query(
      `INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, next_attempt_at)
       VALUES ($1, $3, $4, $5, 'succeeded', NULL), ($2, $3, $6, $5, 'pending', now() + interval '1 day')`,
      [newId('dlv'), newId('dlv'), endpoint.id, agedDelivered.id, tenantId, agedOwed.id],
    );

    expect(await service.app.get(EventRetention).purge()).toBe(2);
    const kept = (await service.sql.query(`SELECT id FROM events WHERE tenant_id = $1`, [tenantId])) as { id: string }[];
    expect(kept.map((e) => e.id).sort()).toEqual([agedOwed.id, recent.id].sort());
    expect(await service.deliveriesOf(agedDelivered.id)).toEqual([]);
    expect(await service.deliveriesOf(agedOwed.id)).toHaveLength(1);
  });
});
