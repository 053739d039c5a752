import {
  Topics,
  WEBHOOK_EVENT_TYPES,
  conversationKey,
  newId,
  type CreateWebhookBody,
  type EventEnvelope,
  type MessageStatusData,
} from '@parley/contracts';
import { EventPublisher, RpcProblemError } from '@parley/kafka';
import { KafkaHarness, pollUntil } from '@parley/testing';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { PER_ENDPOINT_IN_FLIGHT } from './deliveries/delivery-dispatcher';
import { messageReceived } from './test/events';
import { Receiver } from './test/receiver';
import { startWebhookService, type WebhookServiceUnderTest } from './test/webhook-service-under-test';

/** A message.received the agent answered. */
function received(tenantId: string, message = 'Do you open on Sundays?') {
  return messageReceived(tenantId, { message, agent_response: 'Yes — from 10:00 to 14:00 ☕', reply_message_id: newId('msg'), agent: 'support' });
}

function status(tenantId: string): EventEnvelope<'message.status', MessageStatusData> {
  const data: MessageStatusData = {
    event: 'message.status',
    channel: 'whatsapp',
    tenant_id: tenantId,
    message_id: newId('msg'),
    status: 'delivered',
    to: '+4915112345678',
    at: new Date().toISOString(),
  };
  return EventPublisher.envelope(Topics.MessageStatus, tenantId, data);
}

interface AttemptRow {
  attempt: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
}

describe('webhook-service: endpoints over request-reply, signed durable delivery from Kafka', () => {
  let service: WebhookServiceUnderTest;
  let kafka: KafkaHarness;
  let sql: DataSource;
  const publish = (event: EventEnvelope) => kafka.publisher.publishEvent(event, conversationKey(event.tenant_id!, 'customer'), undefined, { timeoutMs: 10_000 });
  const attemptsOf = (deliveryId: string): Promise<AttemptRow[]> =>
    sql.query(`SELECT attempt, status_code, error, response_excerpt, duration_ms FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [deliveryId]);

  beforeAll(async () => {
    service = await startWebhookService('webhooks', { LOG_LEVEL: 'warn' });
    ({ kafka, sql } = service);
  });

  afterAll(() => service?.close());

  describe('endpoint settings', () => {
    it('creates an endpoint with defaults and a whsec_ secret shown on create and get-secret only', async () => {
      const created = await service.createEndpoint('ten_S', { url: 'http://127.0.0.1:9/hook' });
      expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: [...WEBHOOK_EVENT_TYPES], description: null, enabled: true, ordered: false });
      expect(created.id).toMatch(/^whk_[0-9A-Z]{26}$/);
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
      expect(new Date(created.created_at).toISOString()).toBe(created.created_at);

      const fetched = await kafka.rpc.request('webhooks.get', { tenant_id: 'ten_S', id: created.id });
      expect(fetched).not.toHaveProperty('secret');
      expect(fetched).toEqual({ ...created, secret: undefined });
      const list = await kafka.rpc.request('webhooks.list', { tenant_id: 'ten_S', limit: 50, cursor: null });
      expect(list.data.map((e) => e.id)).toEqual([created.id]);
      expect(list.data[0]).not.toHaveProperty('secret');
      expect(await kafka.rpc.request('webhooks.get-secret', { tenant_id: 'ten_S', id: created.id })).toEqual({ secret: created.secret });
    });

    it('updates only the given fields, lists newest first with a cursor, and deletes', async () => {
      const a = await service.createEndpoint('ten_U', { url: 'http://127.0.0.1:9/a', events: ['message.status'], description: 'first' });
      const b = await service.createEndpoint('ten_U', { url: 'http://127.0.0.1:9/b' });
      const updated = await kafka.rpc.request('webhooks.update', { tenant_id: 'ten_U', id: a.id, body: { enabled: false, ordered: true } });
      expect(updated).toMatchObject({ id: a.id, url: 'http://127.0.0.1:9/a', events: ['message.status'], description: 'first', enabled: false, ordered: true });

      const first = await kafka.rpc.request('webhooks.list', { tenant_id: 'ten_U', limit: 1, cursor: null });
      expect(first.data.map((e) => e.id)).toEqual([b.id]);
      const second = await kafka.rpc.request('webhooks.list', { tenant_id: 'ten_U', limit: 1, cursor: first.next_cursor });
      expect(second).toEqual({ data: [expect.objectContaining({ id: a.id })], next_cursor: null });
      // Only a cursor this list handed out pages it: a bare id or another tenant's cursor is a 400 naming cursor.
      for (const [tenant_id, cursor] of [['ten_U', b.id], ['ten_other', first.next_cursor]] as const) {
        await expect(kafka.rpc.request('webhooks.list', { tenant_id, limit: 1, cursor })).rejects.toMatchObject({ problem: { status: 400, errors: [{ field: 'cursor' }] } });
      }

      expect(await kafka.rpc.request('webhooks.delete', { tenant_id: 'ten_U', id: a.id })).toEqual({ deleted: true });
      await expect(kafka.rpc.request('webhooks.get', { tenant_id: 'ten_U', id: a.id })).rejects.toMatchObject({ problem: { status: 404 } });
    });

    it("answers another tenant's endpoint with 404 on every route", async () => {
      const own = await service.createEndpoint('ten_O', { url: 'http://127.0.0.1:9/o' });
      for (const request of [
        kafka.rpc.request('webhooks.get', { tenant_id: 'ten_X', id: own.id }),
        kafka.rpc.request('webhooks.get-secret', { tenant_id: 'ten_X', id: own.id }),
        kafka.rpc.request('webhooks.update', { tenant_id: 'ten_X', id: own.id, body: { enabled: false } }),
        kafka.rpc.request('webhooks.delete', { tenant_id: 'ten_X', id: own.id }),
        kafka.rpc.request('webhooks.get', { tenant_id: 'ten_X', id: 'not-an-id' }),
      ]) {
        await expect(request).rejects.toMatchObject({ problem: { status: 404, type: 'https://parley.dev/problems/not-found' } });
      }
      expect((await kafka.rpc.request('webhooks.list', { tenant_id: 'ten_X', limit: 50, cursor: null })).data).toEqual([]);
      expect(await kafka.rpc.request('webhooks.get', { tenant_id: 'ten_O', id: own.id })).toMatchObject({ enabled: true });
    });

    it('answers a bad url, an unknown event type or an unknown field with a 400 problem naming the field', async () => {
      const problemOf = async (body: unknown) => {
        const err = await service.createEndpoint('ten_V', body as CreateWebhookBody).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RpcProblemError);
        expect((err as RpcProblemError).problem).toMatchObject({ status: 400, type: 'https://parley.dev/problems/validation-error' });
        return (err as RpcProblemError).problem.errors ?? [];
      };
      expect(await problemOf({ url: 'not a url' })).toEqual([expect.objectContaining({ field: 'url' })]);
      expect(await problemOf({ url: 'ftp://example.com/x' })).toEqual([expect.objectContaining({ field: 'url' })]);
      const events = await problemOf({ url: 'http://127.0.0.1:9/x', events: ['message.received', 'message.deleted'] });
      expect(events).toEqual([expect.objectContaining({ field: 'events' })]);
      expect(events[0].message).toContain('message.received, message.status');
      expect(await problemOf({ url: 'http://127.0.0.1:9/x', colour: 'blue' })).toEqual([{ field: 'colour', message: 'colour is not an allowed field' }]);

      const own = await service.createEndpoint('ten_V', { url: 'http://127.0.0.1:9/v' });
      const err = await kafka.rpc.request('webhooks.update', { tenant_id: 'ten_V', id: own.id, body: { url: 'mailto:a@b.c' } }).catch((e: unknown) => e);
      expect((err as RpcProblemError).problem.errors).toEqual([expect.objectContaining({ field: 'url' })]);
    });
  });

  describe('delivery', () => {
    it('POSTs the exact event body, signed so standardwebhooks verifies it, only to subscribed endpoints of the tenant', async () => {
      const all = await service.receiver();
      const statusOnly = await service.receiver();
      const otherTenant = await service.receiver();
      const endpoint = await service.createEndpoint('ten_A', { url: all.url });
      const statusEndpoint = await service.createEndpoint('ten_A', { url: statusOnly.url, events: ['message.status'] });
      const otherEndpoint = await service.createEndpoint('ten_B', { url: otherTenant.url });

      const event = received('ten_A');
      await publish(event);
      const [request] = await pollUntil(() => all.withId(event.id).length > 0 && all.withId(event.id), { description: 'the webhook POST' });

      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hook');
      expect(request.body).toBe(JSON.stringify(event.data));
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^Parley-Webhooks\//);
      expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
      expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toEqual(event.data);

      // Fan-out is one transaction with the event, so by now every delivery of it exists: only the subscribed one.
      expect((await service.deliveriesOf(event.id)).map((d) => d.endpoint_id)).toEqual([endpoint.id]);
      await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
      expect(statusOnly.withId(event.id)).toEqual([]);
      expect(otherTenant.requests).toEqual([]);

      const statusEvent = status('ten_A');
      await publish(statusEvent);
      const [statusRequest] = await pollUntil(() => statusOnly.withId(statusEvent.id).length > 0 && statusOnly.withId(statusEvent.id), {
        description: 'the message.status POST',
      });
      expect(new Webhook(statusEndpoint.secret).verify(statusRequest.body, statusRequest.headers)).toEqual(statusEvent.data);
      await pollUntil(() => all.withId(statusEvent.id).length > 0, { description: 'message.status to the all-events endpoint' });
      expect(statusOnly.requests.map((r) => r.headers['webhook-id'])).toEqual([statusEvent.id]);
      expect((await service.deliveriesOf(statusEvent.id)).map((d) => d.endpoint_id).sort()).toEqual([endpoint.id, statusEndpoint.id].sort());
      expect(otherTenant.requests).toEqual([]);
      expect(otherEndpoint.id).toMatch(/^whk_/);
    });

    it('creates one delivery for a duplicated event envelope', async () => {
      const target = await service.receiver();
      await service.createEndpoint('ten_D', { url: target.url });
      const event = received('ten_D');
      await publish(event);
      await publish(event);
      // Same key, same partition: once the marker is delivered, both copies have been consumed.
      const marker = received('ten_D', 'marker');
      await publish(marker);
      await pollUntil(() => target.withId(marker.id).length > 0, { description: 'the marker event' });
      await pollUntil(() => target.withId(event.id).length > 0, { description: 'the duplicated event' });
      expect(await service.deliveriesOf(event.id)).toHaveLength(1);
      expect(target.withId(event.id)).toHaveLength(1);
      expect(await sql.query(`SELECT count(*)::int AS n FROM events WHERE id = $1`, [event.id])).toEqual([{ n: 1 }]);
    });

    it('retries on the schedule with the same webhook-id and records every attempt, until a 2xx', async () => {
      const flaky = await service.receiver([{ status: 500, body: 'database is down' }, { status: 500, body: 'still down' }, { status: 204 }]);
      const endpoint = await service.createEndpoint('ten_R', { url: flaky.url });
      const event = received('ten_R');
      await publish(event);

      const delivery = await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
      expect(delivery.attempt_count).toBe(3);
      const requests = flaky.withId(event.id);
      expect(requests).toHaveLength(3);
      for (const r of requests) {
        expect(r.body).toBe(JSON.stringify(event.data));
        expect(new Webhook(endpoint.secret).verify(r.body, r.headers)).toEqual(event.data);
      }
      // Each retry waits at least the schedule's floor (1 s here).
      expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(900);
      expect(requests[2].at - requests[1].at).toBeGreaterThanOrEqual(900);
      const attempts = await attemptsOf(delivery.id);
      expect(attempts.map((a) => [a.attempt, a.status_code, a.response_excerpt])).toEqual([
        [1, 500, 'database is down'],
        [2, 500, 'still down'],
        [3, 204, null],
      ]);
      expect(attempts.every((a) => a.duration_ms >= 0 && a.error === null)).toBe(true);
      expect(await sql.query(`SELECT failing_since FROM endpoints WHERE id = $1`, [endpoint.id])).toEqual([{ failing_since: null }]);
    });

    it('gives up after the last scheduled retry: the delivery is dead', async () => {
      const broken = await service.receiver({ status: 502, body: 'x'.repeat(5000) });
      const endpoint = await service.createEndpoint('ten_F', { url: broken.url });
      const event = received('ten_F');
      await publish(event);

      const delivery = await service.deliveryReaching(event.id, endpoint.id, 'dead');
      expect(delivery.attempt_count).toBe(4);
      expect(broken.withId(event.id)).toHaveLength(4);
      const attempts = await attemptsOf(delivery.id);
      expect(attempts.map((a) => a.status_code)).toEqual([502, 502, 502, 502]);
      expect(attempts[0].response_excerpt).toHaveLength(1024);
      const [row] = await sql.query(`SELECT failing_since, enabled FROM endpoints WHERE id = $1`, [endpoint.id]);
      expect(row.enabled).toBe(true);
      expect(row.failing_since).toBeInstanceOf(Date);
    });

    it('records a refused connection as a failed attempt', async () => {
      const gone = await Receiver.start();
      const url = gone.url;
      await gone.close();
      const endpoint = await service.createEndpoint('ten_C', { url });
      const event = received('ten_C');
      await publish(event);
      const delivery = await pollUntil(async () => (await service.deliveriesOf(event.id)).find((d) => d.attempt_count >= 1), { description: 'a first attempt' });
      const [attempt] = await attemptsOf(delivery.id);
      expect(attempt).toMatchObject({ attempt: 1, status_code: null });
      expect(attempt.error).toMatch(/ECONNREFUSED/);
      await kafka.rpc.request('webhooks.delete', { tenant_id: 'ten_C', id: endpoint.id });
    });

    it('disables the endpoint on 410 Gone and stops its pending deliveries', async () => {
      const retired = await service.receiver({ status: 410 });
      const endpoint = await service.createEndpoint('ten_G', { url: retired.url });
      const event = received('ten_G');
      await publish(event);

      const delivery = await service.deliveryReaching(event.id, endpoint.id, 'dead');
      expect(delivery.attempt_count).toBe(1);
      expect(await kafka.rpc.request('webhooks.get', { tenant_id: 'ten_G', id: endpoint.id })).toMatchObject({ enabled: false });
      const [row] = await sql.query(`SELECT disabled_reason FROM endpoints WHERE id = $1`, [endpoint.id]);
      expect(row.disabled_reason).toMatch(/410/);

      // A disabled endpoint gets no new deliveries.
      const later = received('ten_G');
      const marker = await service.receiver();
      await service.createEndpoint('ten_G', { url: marker.url });
      await publish(later);
      await pollUntil(() => marker.withId(later.id).length > 0, { description: 'the later event at the other endpoint' });
      expect((await service.deliveriesOf(later.id)).map((d) => d.endpoint_id)).not.toContain(endpoint.id);
      expect(retired.requests).toHaveLength(1);

      // Re-enabling clears the reason.
      await kafka.rpc.request('webhooks.update', { tenant_id: 'ten_G', id: endpoint.id, body: { enabled: true } });
      expect(await sql.query(`SELECT disabled_reason, enabled FROM endpoints WHERE id = $1`, [endpoint.id])).toEqual([{ disabled_reason: null, enabled: true }]);
    });

    it('counts a redirect as a failure and never follows it', async () => {
      const elsewhere = await service.receiver();
      const redirecting = await service.receiver([{ status: 302, headers: { location: elsewhere.url } }, { status: 200, body: 'ok' }]);
      const endpoint = await service.createEndpoint('ten_3', { url: redirecting.url });
      const event = received('ten_3');
      await publish(event);

      const delivery = await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
      const attempts = await attemptsOf(delivery.id);
      expect(attempts.map((a) => a.status_code)).toEqual([302, 200]);
      expect(attempts[0].error).toContain('redirect (302');
      expect(elsewhere.requests).toEqual([]);
    });

    it('waits as long as Retry-After asks on 429', async () => {
      const throttled = await service.receiver([{ status: 429, headers: { 'retry-after': '2' } }, { status: 200 }]);
      const endpoint = await service.createEndpoint('ten_T', { url: throttled.url });
      const event = received('ten_T');
      await publish(event);
      await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
      const [first, second] = throttled.withId(event.id);
      expect(second.at - first.at).toBeGreaterThanOrEqual(1900);
    });

    it('keeps a slow endpoint from holding up the others', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // The slow endpoint answers nothing until the fast one has had every event.
      const slow = await service.receiver(async () => {
        await released;
        return { status: 200 };
      });
      const fast = await service.receiver();
      await service.createEndpoint('ten_N', { url: slow.url });
      await service.createEndpoint('ten_N', { url: fast.url });

      const events = Array.from({ length: PER_ENDPOINT_IN_FLIGHT + 6 }, () => received('ten_N'));
      for (const e of events) await publish(e);
      await pollUntil(() => events.every((e) => fast.withId(e.id).length === 1), { description: 'every event at the fast endpoint' });
      // The slow endpoint never has more than the per-endpoint cap in flight.
      expect(slow.requests.length).toBeLessThanOrEqual(PER_ENDPOINT_IN_FLIGHT);
      release();
      await pollUntil(() => events.every((e) => slow.withId(e.id).length === 1), { description: 'the slow endpoint catching up' });
    });

    it('sends again a delivery whose lease ran out (a crashed worker), but not one still leased', async () => {
      const target = await service.receiver();
      const endpoint = await service.createEndpoint('ten_L', { url: target.url });
      const [expired, leased] = [received('ten_L'), received('ten_L')];
      for (const [event, lockedUntil] of [
        [expired, `now() - interval '1 second'`],
        [leased, `now() + interval '1 hour'`],
      ] as const) {
        await sql.query(`INSERT INTO events (id, tenant_id, type, payload, occurred_at) VALUES ($1, 'ten_L', $2, $3::json, now())`, [
          event.id,
          event.type,
          JSON.stringify(event.data),
        ]);
        await sql.query(
          `INSERT INTO deliveries (id, endpoint_id, event_id, tenant_id, status, next_attempt_at, locked_until)
           VALUES ($1, $2, $3, 'ten_L', 'pending', now() - interval '1 minute', ${lockedUntil})`,
          [newId('dlv'), endpoint.id, event.id],
        );
      }
      await service.deliveryReaching(expired.id, endpoint.id, 'succeeded');
      const [request] = target.withId(expired.id);
      expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toEqual(expired.data);
      expect(target.withId(leased.id)).toEqual([]);
      expect((await service.deliveriesOf(leased.id))[0]).toMatchObject({ status: 'pending', attempt_count: 0 });
    });

    it('gets a new event to its receiver within tens of milliseconds of consuming it', async () => {
      const target = await service.receiver();
      const endpoint = await service.createEndpoint('ten_Q', { url: target.url });
      const fromPublish: number[] = [];
      const fromConsume: number[] = [];
      for (let i = 0; i < 20; i++) {
        const event = received('ten_Q');
        const publishedAt = Date.now();
        await publish(event);
        const [request] = await pollUntil(() => target.withId(event.id).length > 0 && target.withId(event.id), { intervalMs: 5, description: 'the POST' });
        fromPublish.push(request.at - publishedAt);
        // The delivery row is created in the consumer's transaction: its created_at is the moment of consumption.
        const [row] = await sql.query(`SELECT created_at FROM deliveries WHERE event_id = $1 AND endpoint_id = $2`, [event.id, endpoint.id]);
        fromConsume.push(request.at - (row.created_at as Date).getTime());
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      process.stderr.write(`webhook-service: median ms publish → POST ${median(fromPublish)}, consume → POST ${median(fromConsume)}\n`);
      // Far below the 500 ms poll: the consumer wakes the dispatcher directly.
      expect(median(fromConsume)).toBeLessThan(150);
    });
  });
});
