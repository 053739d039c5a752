import {
  Topics,
  conversationKey,
  newId,
  type AppointmentBookedData,
  type ConversationHandoffData,
  type EventEnvelope,
  type LeadCapturedData,
  type WebhookEndpointDisabledData,
} from '@parley/contracts';
import { EventPublisher, RpcProblemError } from '@parley/kafka';
import { KafkaHarness, pollUntil } from '@parley/testing';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { CUSTOMER, messageReceived } from './test/events';
import { Receiver, type ReceivedRequest } from './test/receiver';
import { startWebhookService, type WebhookServiceUnderTest } from './test/webhook-service-under-test';

function leadCaptured(tenantId: string): EventEnvelope<'lead.captured', LeadCapturedData> {
  const data: LeadCapturedData = {
    event: 'lead.captured',
    tenant_id: tenantId,
    channel: 'whatsapp',
    agent: 'sales',
    lead: { id: newId('led'), name: 'Ada', email: 'ada@example.com', phone: CUSTOMER, interest: 'wedding cake', conversation_id: newId('cnv'), created_at: new Date().toISOString() },
    at: new Date().toISOString(),
  };
  return EventPublisher.envelope(Topics.LeadCaptured, tenantId, data);
}

function appointmentBooked(tenantId: string): EventEnvelope<'appointment.booked', AppointmentBookedData> {
  const data: AppointmentBookedData = {
    event: 'appointment.booked',
    tenant_id: tenantId,
    channel: 'whatsapp',
    agent: 'sales',
    appointment: {
      id: newId('apt'),
      customer: CUSTOMER,
      starts_at: '2030-01-02T10:00:00.000Z',
      ends_at: '2030-01-02T10:30:00.000Z',
      timezone: 'Europe/Berlin',
      status: 'booked',
      conversation_id: newId('cnv'),
    },
    at: new Date().toISOString(),
  };
  return EventPublisher.envelope(Topics.AppointmentBooked, tenantId, data);
}

function handoff(tenantId: string): EventEnvelope<'conversation.handoff', ConversationHandoffData> {
  const data: ConversationHandoffData = {
    event: 'conversation.handoff',
    tenant_id: tenantId,
    channel: 'whatsapp',
    conversation_id: newId('cnv'),
    customer: CUSTOMER,
    agent: 'support',
    reason: 'customer_asked_for_human',
    at: new Date().toISOString(),
  };
  return EventPublisher.envelope(Topics.ConversationHandoff, tenantId, data);
}


const problemOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a problem answer');
    },
    (err: unknown) => {
      if (!(err instanceof RpcProblemError)) throw err;
      return err.problem;
    },
  );

describe('webhook-service: public events, secret rotation, delivery log, retry, replay, disabling and ordering', () => {
  let service: WebhookServiceUnderTest;
  let kafka: KafkaHarness;
  let sql: DataSource;
  const publish = (event: EventEnvelope, customer = CUSTOMER) =>
    kafka.publisher.publishEvent(event, conversationKey(event.tenant_id!, customer), undefined, { timeoutMs: 10_000 });
  const requestsWith = (r: Receiver, id: string, count = 1): Promise<ReceivedRequest[]> =>
    pollUntil(() => r.withId(id).length >= count && r.withId(id), { description: `${count} request(s) with webhook-id ${id}`, timeoutMs: 20_000 });

  beforeAll(async () => {
    service = await startWebhookService('webhooklife');
    ({ kafka, sql } = service);
  });

  afterAll(() => service?.close());

  describe('public engagement events', () => {
    it('delivers lead.captured, appointment.booked and conversation.handoff signed, once per subscribed endpoint, idempotent on the envelope id', async () => {
      const all = await service.receiver();
      const leadsOnly = await service.receiver();
      const everything = await service.createEndpoint('ten_E', { url: all.url });
      const leads = await service.createEndpoint('ten_E', { url: leadsOnly.url, events: ['lead.captured'] });
      const events: EventEnvelope[] = [leadCaptured('ten_E'), appointmentBooked('ten_E'), handoff('ten_E')];
      for (const event of events) await publish(event);
      await publish(events[0]); // a redelivered envelope

      for (const event of events) {
        const [request] = await requestsWith(all, event.id);
        expect(request.body).toBe(JSON.stringify(event.data));
        expect(new Webhook(everything.secret).verify(request.body, request.headers)).toEqual(event.data);
      }
      const [lead] = await requestsWith(leadsOnly, events[0].id);
      expect(new Webhook(leads.secret).verify(lead.body, lead.headers)).toEqual(events[0].data);

      // A marker on the same partitions as the duplicate: once it is delivered, the duplicate has been consumed.
      const marker = leadCaptured('ten_E');
      await publish(marker);
      await requestsWith(leadsOnly, marker.id);
      expect((await service.deliveriesOf(events[0].id)).map((d) => d.endpoint_id).sort()).toEqual([everything.id, leads.id].sort());
      expect((await service.deliveriesOf(events[1].id)).map((d) => d.endpoint_id)).toEqual([everything.id]);
      expect((await service.deliveriesOf(events[2].id)).map((d) => d.endpoint_id)).toEqual([everything.id]);
      expect(all.withId(events[0].id)).toHaveLength(1);
      expect(leadsOnly.requests.map((r) => r.headers['webhook-id'])).toEqual([events[0].id, marker.id]);
    });
  });

  describe('secret rotation and test events', () => {
    it('signs with the new and the old secret for 24 h after a rotation; either verifies, and only the new one after expiry', async () => {
      const target = await service.receiver();
      const endpoint = await service.createEndpoint('ten_K', { url: target.url });
      const { secret } = await kafka.rpc.request('webhooks.rotate-secret', { tenant_id: 'ten_K', id: endpoint.id });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secret).not.toBe(endpoint.secret);
      expect(await kafka.rpc.request('webhooks.get-secret', { tenant_id: 'ten_K', id: endpoint.id })).toEqual({ secret });
      const [row] = await sql.query(`SELECT previous_secret, previous_secret_expires_at FROM endpoints WHERE id = $1`, [endpoint.id]);
      expect(row.previous_secret).toBe(endpoint.secret);
      expect(row.previous_secret_expires_at.getTime() - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect(row.previous_secret_expires_at.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

      const during = messageReceived('ten_K');
      await publish(during);
      const [signedTwice] = await requestsWith(target, during.id);
      expect(signedTwice.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(signedTwice.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
      expect(new Webhook(secret).verify(signedTwice.body, signedTwice.headers)).toEqual(during.data);
      expect(new Webhook(endpoint.secret).verify(signedTwice.body, signedTwice.headers)).toEqual(during.data);

      await sql.query(`UPDATE endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [endpoint.id]);
      const after = messageReceived('ten_K');
      await publish(after);
      const [signedOnce] = await requestsWith(target, after.id);
      expect(signedOnce.headers['webhook-signature'].split(' ')).toHaveLength(1);
      expect(new Webhook(secret).verify(signedOnce.body, signedOnce.headers)).toEqual(after.data);
      expect(() => new Webhook(endpoint.secret).verify(signedOnce.body, signedOnce.headers)).toThrow(WebhookVerificationError);

      expect(await problemOf(kafka.rpc.request('webhooks.rotate-secret', { tenant_id: 'ten_other', id: endpoint.id }))).toMatchObject({ status: 404 });
    });

    it('sends webhook.test to that endpoint only, whatever it subscribes to', async () => {
      const target = await service.receiver();
      const sibling = await service.receiver();
      const endpoint = await service.createEndpoint('ten_T', { url: target.url, events: ['message.status'] });
      const other = await service.createEndpoint('ten_T', { url: sibling.url });
      const answer = await kafka.rpc.request('webhooks.test', { tenant_id: 'ten_T', id: endpoint.id });
      expect(answer).toEqual({ accepted: true, event_id: expect.stringMatching(/^evt_/) });

      const [request] = await requestsWith(target, answer.event_id);
      const body = new Webhook(endpoint.secret).verify(request.body, request.headers) as Record<string, unknown>;
      expect(body).toEqual({ event: 'webhook.test', tenant_id: 'ten_T', endpoint_id: endpoint.id, at: expect.any(String) });
      expect((await service.deliveriesOf(answer.event_id)).map((d) => d.endpoint_id)).toEqual([endpoint.id]);
      expect(sibling.requests).toEqual([]);
      expect(other.id).not.toBe(endpoint.id);

      expect(await problemOf(kafka.rpc.request('webhooks.test', { tenant_id: 'ten_other', id: endpoint.id }))).toMatchObject({ status: 404 });
    });
  });

  describe('delivery log, retry and replay', () => {
    it('lists deliveries newest first with every attempt, filtered by status and paged', async () => {
      const flaky = await service.receiver([{ status: 500, body: 'try later' }, { status: 200 }]);
      const endpoint = await service.createEndpoint('ten_L', { url: flaky.url });
      const first = messageReceived('ten_L');
      const second = messageReceived('ten_L');
      await publish(first);
      await service.deliveryReaching(first.id, endpoint.id, 'succeeded');
      await publish(second);
      await service.deliveryReaching(second.id, endpoint.id, 'succeeded');

      const page = await kafka.rpc.request('deliveries.list', { tenant_id: 'ten_L', endpoint_id: endpoint.id, status: null, limit: 50, cursor: null });
      expect(page.next_cursor).toBeNull();
      expect(page.data.map((d) => d.event_id)).toEqual([second.id, first.id]);
      const [, firstRecord] = page.data;
      expect(firstRecord).toMatchObject({ endpoint_id: endpoint.id, event_type: 'message.received', status: 'succeeded', attempt_count: 2, next_attempt_at: null });
      expect(firstRecord.attempts).toEqual([
        { attempt: 1, attempted_at: expect.any(String), status_code: 500, duration_ms: expect.any(Number), error: null, response_excerpt: 'try later' },
        { attempt: 2, attempted_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), error: null, response_excerpt: null },
      ]);
      expect(Date.parse(firstRecord.attempts[1].attempted_at)).toBeGreaterThan(Date.parse(firstRecord.attempts[0].attempted_at));

      const one = await kafka.rpc.request('deliveries.list', { tenant_id: 'ten_L', endpoint_id: endpoint.id, status: null, limit: 1, cursor: null });
      expect(one.data.map((d) => d.event_id)).toEqual([second.id]);
      const next = await kafka.rpc.request('deliveries.list', { tenant_id: 'ten_L', endpoint_id: endpoint.id, status: null, limit: 1, cursor: one.next_cursor });
      expect(next.data.map((d) => d.event_id)).toEqual([first.id]);
      expect(next.next_cursor).toBeNull();
      // A deliveries cursor is bound to its endpoint's list.
      expect(await problemOf(kafka.rpc.request('webhooks.list', { tenant_id: 'ten_L', limit: 1, cursor: one.next_cursor }))).toMatchObject({ status: 400, errors: [{ field: 'cursor' }] });
      const dead = await kafka.rpc.request('deliveries.list', { tenant_id: 'ten_L', endpoint_id: endpoint.id, status: 'dead', limit: 50, cursor: null });
      expect(dead.data).toEqual([]);

      const bad = await problemOf(kafka.rpc.request('deliveries.list', { tenant_id: 'ten_L', endpoint_id: endpoint.id, status: 'lost' as never, limit: 50, cursor: null }));
      expect(bad).toMatchObject({ status: 400, errors: [{ field: 'status', message: expect.stringContaining('pending, succeeded, dead') }] });
      expect(await problemOf(kafka.rpc.request('deliveries.list', { tenant_id: 'ten_other', endpoint_id: endpoint.id, status: null, limit: 50, cursor: null }))).toMatchObject({
        status: 404,
      });
    });

    it('shows one delivery with the exact body the receiver got and its fixed headers, to its own endpoint and tenant only', async () => {
      const receiver = await service.receiver();
      const endpoint = await service.createEndpoint('ten_P', { url: receiver.url });
      const event = messageReceived('ten_P', { message: 'Ünïcode & "quotes" ☕' });
      await publish(event);
      const delivery = await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
      const [sent] = receiver.withId(event.id);

      const detail = await kafka.rpc.request('deliveries.get', { tenant_id: 'ten_P', endpoint_id: endpoint.id, delivery_id: delivery.id });
      const listed = await kafka.rpc.request('deliveries.list', { tenant_id: 'ten_P', endpoint_id: endpoint.id, status: null, limit: 50, cursor: null });
      expect(detail).toEqual({ ...listed.data[0], payload: JSON.parse(sent.body), request_headers: expect.any(Object) });
      expect(JSON.stringify(detail.payload)).toBe(sent.body);
      expect(detail.request_headers).toEqual({ 'content-type': sent.headers['content-type'], 'user-agent': sent.headers['user-agent'], 'webhook-id': event.id });
      expect(JSON.stringify(detail)).not.toContain('whsec_');

      const other = await service.createEndpoint('ten_P', { url: receiver.url });
      for (const [tenant_id, endpoint_id, delivery_id] of [
        ['ten_other', endpoint.id, delivery.id],
        ['ten_P', other.id, delivery.id],
        ['ten_P', endpoint.id, 'nope'],
      ]) {
        expect(await problemOf(kafka.rpc.request('deliveries.get', { tenant_id, endpoint_id, delivery_id }))).toMatchObject({ status: 404 });
      }
    });

    it('retries a dead delivery now, with a fresh schedule and the same webhook-id', async () => {
      let healthy = false;
      const target = await service.receiver(() => (healthy ? { status: 200 } : { status: 503, body: 'maintenance' }));
      const endpoint = await service.createEndpoint('ten_Y', { url: target.url });
      const event = messageReceived('ten_Y');
      await publish(event);
      const delivery = await service.deliveryReaching(event.id, endpoint.id, 'dead');
      expect(delivery.attempt_count).toBe(4);

      // Still failing: a manual retry gets the whole schedule again, not one last attempt.
      expect(await kafka.rpc.request('deliveries.retry', { tenant_id: 'ten_Y', endpoint_id: endpoint.id, delivery_id: delivery.id })).toEqual({
        accepted: true,
        delivery_id: delivery.id,
      });
      await requestsWith(target, event.id, 6);
      healthy = true;
      const done = await service.deliveryReaching(event.id, endpoint.id, 'succeeded');
      expect(done.attempt_count).toBeGreaterThanOrEqual(6);
      expect(new Set(target.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));

      expect(await problemOf(kafka.rpc.request('deliveries.retry', { tenant_id: 'ten_other', endpoint_id: endpoint.id, delivery_id: delivery.id }))).toMatchObject({
        status: 404,
      });
      const other = await service.createEndpoint('ten_Y', { url: target.url });
      expect(await problemOf(kafka.rpc.request('deliveries.retry', { tenant_id: 'ten_Y', endpoint_id: other.id, delivery_id: delivery.id }))).toMatchObject({
        status: 404,
      });
      expect(await problemOf(kafka.rpc.request('deliveries.retry', { tenant_id: 'ten_Y', endpoint_id: endpoint.id, delivery_id: 'nope' }))).toMatchObject({ status: 404 });
    });

    it('replays every kept event since a time that the endpoint subscribes to, with the same webhook-ids', async () => {
      const target = await service.receiver();
      const witness = await service.receiver();
      const witnessEndpoint = await service.createEndpoint('ten_P', { url: witness.url, events: ['lead.captured'] });
      const since = new Date(Date.now() - 1000).toISOString();
      const early = messageReceived('ten_P');
      const lead = leadCaptured('ten_P');
      const otherTenant = messageReceived('ten_Q');
      for (const event of [early, lead, otherTenant]) await publish(event);
      // Same key, same partition: once the marker is delivered, the events before it are stored.
      const marker = leadCaptured('ten_P');
      await publish(marker);
      await requestsWith(witness, marker.id);

      // Created after the events: replay brings it the ones it subscribes to (message.received), never other tenants'.
      const endpoint = await service.createEndpoint('ten_P', { url: target.url, events: ['message.received'] });
      expect(await kafka.rpc.request('webhooks.replay', { tenant_id: 'ten_P', id: endpoint.id, body: { since } })).toEqual({ accepted: true, deliveries: 1 });
      const [replayed] = await requestsWith(target, early.id);
      expect(new Webhook(endpoint.secret).verify(replayed.body, replayed.headers)).toEqual(early.data);
      await service.deliveryReaching(early.id, endpoint.id, 'succeeded');

      // Replaying again re-sends the delivered one (same webhook-id, so the receiver can drop it).
      expect(await kafka.rpc.request('webhooks.replay', { tenant_id: 'ten_P', id: endpoint.id, body: { since } })).toEqual({ accepted: true, deliveries: 1 });
      await requestsWith(target, early.id, 2);
      expect(target.requests.map((r) => r.headers['webhook-id'])).toEqual([early.id, early.id]);
      // The witness subscribes to leads: a replay for it covers the two leads since then.
      expect(await kafka.rpc.request('webhooks.replay', { tenant_id: 'ten_P', id: witnessEndpoint.id, body: { since } })).toEqual({ accepted: true, deliveries: 2 });
      await requestsWith(witness, lead.id, 2);
      await requestsWith(witness, marker.id, 2);

      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000).toISOString();
      const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
      for (const body of [{ since: eightDaysAgo }, { since: tomorrow }, { since: 'yesterday' }, {}]) {
        expect(await problemOf(kafka.rpc.request('webhooks.replay', { tenant_id: 'ten_P', id: endpoint.id, body: body as { since: string } }))).toMatchObject({
          status: 400,
          errors: [{ field: 'since', message: expect.any(String) }],
        });
      }
      expect(await problemOf(kafka.rpc.request('webhooks.replay', { tenant_id: 'ten_other', id: endpoint.id, body: { since } }))).toMatchObject({ status: 404 });
    });
  });

  describe('disabling', () => {
    it('disables an endpoint failing for 5 days on its next failure and tells the tenant’s other subscribed endpoints', async () => {
      const failing = await service.receiver({ status: 500 });
      const watcher = await service.receiver();
      const unsubscribed = await service.receiver();
      const recent = await service.receiver({ status: 500 });
      const endpoint = await service.createEndpoint('ten_X', { url: failing.url });
      const watching = await service.createEndpoint('ten_X', { url: watcher.url, events: ['webhook.endpoint_disabled'] });
      await service.createEndpoint('ten_X', { url: unsubscribed.url, events: ['message.received'] });
      const recentlyFailing = await service.createEndpoint('ten_X', { url: recent.url, events: ['message.status'] });
      await sql.query(`UPDATE endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [endpoint.id]);
      await sql.query(`UPDATE endpoints SET failing_since = now() - interval '4 days' WHERE id = $1`, [recentlyFailing.id]);

      const event = messageReceived('ten_X');
      await publish(event);
      await service.deliveryReaching(event.id, endpoint.id, 'dead');
      expect(failing.withId(event.id)).toHaveLength(1);
      expect(await kafka.rpc.request('webhooks.get', { tenant_id: 'ten_X', id: endpoint.id })).toMatchObject({ enabled: false });

      const notice = await pollUntil(() => watcher.requests.find((r) => (JSON.parse(r.body) as { event: string }).event === 'webhook.endpoint_disabled'), {
        description: 'webhook.endpoint_disabled at the watcher',
      });
      const data = new Webhook(watching.secret).verify(notice.body, notice.headers) as WebhookEndpointDisabledData;
      expect(data).toEqual({ event: 'webhook.endpoint_disabled', tenant_id: 'ten_X', endpoint_id: endpoint.id, url: failing.url, reason: 'failing_for_5_days', at: expect.any(String) });
      const noticeDeliveries = await service.deliveriesOf(notice.headers['webhook-id']);
      expect(noticeDeliveries.map((d) => d.endpoint_id)).toEqual([watching.id]);
      expect(unsubscribed.requests.filter((r) => r.body.includes('endpoint_disabled'))).toEqual([]);

      // Re-enabling clears the reason and the run of failures.
      await kafka.rpc.request('webhooks.update', { tenant_id: 'ten_X', id: endpoint.id, body: { enabled: true } });
      expect(await sql.query(`SELECT enabled, disabled_reason, failing_since FROM endpoints WHERE id = $1`, [endpoint.id])).toEqual([
        { enabled: true, disabled_reason: null, failing_since: null },
      ]);

      // Failing for less than 5 days: still enabled after a failure.
      const status = EventPublisher.envelope(Topics.MessageStatus, 'ten_X', {
        event: 'message.status' as const,
        channel: 'whatsapp' as const,
        tenant_id: 'ten_X',
        message_id: newId('msg'),
        status: 'read' as const,
        to: CUSTOMER,
        at: new Date().toISOString(),
      });
      await publish(status);
      await pollUntil(async () => (await service.deliveriesOf(status.id)).find((d) => d.endpoint_id === recentlyFailing.id && d.attempt_count >= 1), {
        description: 'a failed attempt at the recently failing endpoint',
      });
      expect(await kafka.rpc.request('webhooks.get', { tenant_id: 'ten_X', id: recentlyFailing.id })).toMatchObject({ enabled: true });
    });

    it('tells the other endpoints when a 410 disables one', async () => {
      const retired = await service.receiver({ status: 410 });
      const watcher = await service.receiver();
      const endpoint = await service.createEndpoint('ten_Z', { url: retired.url, events: ['lead.captured'] });
      const watching = await service.createEndpoint('ten_Z', { url: watcher.url });
      const event = leadCaptured('ten_Z');
      await publish(event);
      await service.deliveryReaching(event.id, endpoint.id, 'dead');
      const notice = await pollUntil(() => watcher.requests.find((r) => r.body.includes('"webhook.endpoint_disabled"')), { description: 'the disable notice' });
      expect(new Webhook(watching.secret).verify(notice.body, notice.headers)).toMatchObject({ endpoint_id: endpoint.id, reason: 'gone' });
      // Retry and test need an enabled endpoint.
      expect(await problemOf(kafka.rpc.request('webhooks.test', { tenant_id: 'ten_Z', id: endpoint.id }))).toMatchObject({ status: 409 });
    });
  });

  describe('ordered endpoints', () => {
    it('delivers one conversation in order, behind a failing delivery, while unordered endpoints and other conversations go on', async () => {
      const failFirst = (failing: Set<string>) => (_n: number, req: ReceivedRequest) => {
        const id = req.headers['webhook-id'];
        if (!failing.has(id)) return { status: 200 };
        failing.delete(id);
        return { status: 500 };
      };
      const a = messageReceived('ten_O', { message: 'first' });
      const b = messageReceived('ten_O', { message: 'second' });
      const c = messageReceived('ten_O', { message: 'third' });
      const elsewhere = messageReceived('ten_O', { from: '+4917000000000', message: 'another conversation' });
      const orderedReceiver = await service.receiver(failFirst(new Set([a.id])));
      const unorderedReceiver = await service.receiver(failFirst(new Set([a.id])));
      const ordered = await service.createEndpoint('ten_O', { url: orderedReceiver.url, ordered: true });
      const unordered = await service.createEndpoint('ten_O', { url: unorderedReceiver.url });
      await publish(a);
      await publish(b);
      await publish(c);
      await publish(elsewhere, '+4917000000000');

      for (const e of [a, b, c, elsewhere]) {
        await service.deliveryReaching(e.id, ordered.id, 'succeeded');
        await service.deliveryReaching(e.id, unordered.id, 'succeeded');
      }
      const ids = (r: Receiver) => r.requests.map((q) => q.headers['webhook-id']);
      const aSucceeded = orderedReceiver.withId(a.id)[1].at;
      // Ordered: B and C only after A finally succeeded, in order; the other conversation did not wait.
      expect(ids(orderedReceiver).filter((id) => id !== elsewhere.id)).toEqual([a.id, a.id, b.id, c.id]);
      expect(orderedReceiver.withId(b.id)[0].at).toBeGreaterThanOrEqual(aSucceeded);
      expect(orderedReceiver.withId(elsewhere.id)[0].at).toBeLessThan(aSucceeded);
      // Unordered: B and C went out while A waited for its retry.
      expect(unorderedReceiver.withId(b.id)[0].at).toBeLessThan(unorderedReceiver.withId(a.id)[1].at);
      expect(unorderedReceiver.withId(c.id)[0].at).toBeLessThan(unorderedReceiver.withId(a.id)[1].at);
      expect(unordered.ordered).toBe(false);
    });
  });
});
