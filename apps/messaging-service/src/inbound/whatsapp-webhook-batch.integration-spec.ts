import { Headers, Topics, derivedId, type WhatsappWebhookData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { MessageStatusService } from '../messages/message-status.service';
import { PendingStatusesService } from '../messages/pending-statuses.service';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';
import { WhatsappWebhookService } from './whatsapp-webhook.service';

const hex = () => randomBytes(6).toString('hex');
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, second)).toISOString();
const unix = (iso: string) => String(Math.floor(Date.parse(iso) / 1000));

interface Channel {
  id: string;
  tenantId: string;
  phoneNumberId: string;
}

function notification(channel: Channel, value: Record<string, unknown>): WhatsappWebhookData {
  const body = {
    object: 'whatsapp_business_account',
    entry: [{ id: 'waba', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '1555', phone_number_id: channel.phoneNumberId }, ...value } }] }],
  };
  return { provider: 'meta', channel_id: null, raw_body: JSON.stringify(body), received_at: new Date().toISOString() };
}

const status = (channel: Channel, wamid: string, name: string, second: number, extra: Record<string, unknown> = {}) =>
  notification(channel, { statuses: [{ id: wamid, status: name, timestamp: unix(at(second)), recipient_id: '15550001111', ...extra }] });

const text = (channel: Channel, from: string, wamid: string, body: string) =>
  notification(channel, { contacts: [{ profile: { name: 'Ana' }, wa_id: from }], messages: [{ from, id: wamid, timestamp: '1749416383', type: 'text', text: { body } }] });

describe('whatsapp.webhook in batches (one business number’s notifications together)', () => {
  let service: MessagingServiceUnderTest;
  let webhooks: WhatsappWebhookService;
  const a: Channel = { id: `chn_a${hex()}`, tenantId: `ten_a${hex()}`, phoneNumberId: `pna${hex()}` };
  const b: Channel = { id: `chn_b${hex()}`, tenantId: `ten_b${hex()}`, phoneNumberId: `pnb${hex()}` };

  beforeAll(async () => {
    service = await startMessagingService('wabatch');
    webhooks = service.app.get(WhatsappWebhookService);
    for (const c of [a, b]) {
      await service.sql.query(`INSERT INTO channels (id, tenant_id, provider, phone_number, phone_number_id, credentials_encrypted) VALUES ($1, $2, 'meta', $3, $4, 'x')`, [
        c.id,
        c.tenantId,
        `+1${c.phoneNumberId.length}${Date.now() % 1e7}${c.id.slice(-3)}`,
        c.phoneNumberId,
      ]);
    }
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await service?.close();
  });

  /** An outbound message of the channel's tenant that the provider took (it carries its wamid, `sent` announced). */
  async function sentMessage(channel: Channel, wamid: string | null = `wamid.${hex()}`): Promise<{ id: string; wamid: string }> {
    const id = `msg_${hex()}${hex()}`;
    await service.sql.query(
      `INSERT INTO messages (id, tenant_id, direction, channel_id, "from", "to", type, body, status, status_history, provider_message_id, announced_statuses)
       VALUES ($1, $2, 'outbound', $3, '+1555', '+15550001111', 'text', 'hi', 'sent', $4, $5, $6)`,
      [id, channel.tenantId, channel.id, JSON.stringify([{ status: 'sent', at: at(0) }]), wamid, wamid ? 1 : 0],
    );
    return { id, wamid: wamid ?? '' };
  }

  const row = async (id: string) =>
    ((await service.sql.query(`SELECT status, status_history, error, announced_statuses, updated_at FROM messages WHERE id = $1`, [id])) as Record<string, unknown>[])[0];
  const statusEvents = (id: string) => service.statuses.messages.filter((m) => m.value.data.message_id === id);
  /** Records ever written to a topic (acknowledged publishes): what a replay must leave unchanged. */
  async function written(topic: string): Promise<number> {
    const admin = service.kafka.connection.kafka.admin();
    await admin.connect();
    try {
      return (await admin.fetchTopicOffsets(service.kafka.connection.topic(topic))).reduce((sum, p) => sum + Number(p.high), 0);
    } finally {
      await admin.disconnect();
    }
  }

  it('applies mixed and out-of-order statuses of many messages together, each ending in its final state, announced once', async () => {
    const oneByOne = [jest.spyOn(service.app.get(MessageStatusService), 'apply'), jest.spyOn(service.app.get(MessageStatusService), 'findByProviderId')];
    const full = await Promise.all(Array.from({ length: 20 }, () => sentMessage(a)));
    const [outOfOrder, readOnly, failed, lateFailure] = await Promise.all([sentMessage(a), sentMessage(a), sentMessage(a), sentMessage(a)]);
    const batch: WhatsappWebhookData[] = [];
    for (const [n, name] of ['sent', 'delivered', 'read'].entries()) for (const m of full) batch.push(status(a, m.wamid, name, n + 1));
    batch.push(status(a, outOfOrder.wamid, 'read', 9), status(a, outOfOrder.wamid, 'delivered', 8), status(a, outOfOrder.wamid, 'sent', 7));
    batch.push(status(a, readOnly.wamid, 'read', 5), status(a, readOnly.wamid, 'played', 6));
    batch.push(status(a, failed.wamid, 'failed', 4, { errors: [{ code: 131026, title: 'Message undeliverable' }] }));
    batch.push(status(a, lateFailure.wamid, 'delivered', 2), status(a, lateFailure.wamid, 'failed', 3));

    await webhooks.processMany(batch.map((data, i) => ({ data, requestId: `req-${i}` })));

    // Known wamids never took the one-by-one path.
    for (const spy of oneByOne) expect(spy).not.toHaveBeenCalled();
    oneByOne.forEach((spy) => spy.mockRestore());
    for (const m of full) {
      expect(await row(m.id)).toMatchObject({ status: 'read', status_history: [{ status: 'sent', at: at(0) }, { status: 'delivered', at: at(2) }, { status: 'read', at: at(3) }], announced_statuses: 3 });
    }
    expect(await row(outOfOrder.id)).toMatchObject({ status: 'read', status_history: [{ status: 'sent', at: at(0) }, { status: 'delivered', at: at(9) }, { status: 'read', at: at(9) }] });
    expect(await row(readOnly.id)).toMatchObject({ status: 'read', status_history: [{ status: 'sent', at: at(0) }, { status: 'delivered', at: at(5) }, { status: 'read', at: at(5) }] });
    expect(await row(failed.id)).toMatchObject({ status: 'failed', error: { code: '131026', title: 'Message undeliverable' } });
    expect(await row(lateFailure.id)).toMatchObject({ status: 'delivered', error: null });

    // Each new status announced exactly once, with its derived id and the request id of the notification that made it.
    await pollUntil(() => full.every((m) => statusEvents(m.id).length >= 2) && statusEvents(lateFailure.id).length >= 1 && statusEvents(failed.id).length >= 1 || undefined, {
      description: 'the batch’s message.status events',
    });
    await pollUntil(() => statusEvents(outOfOrder.id).length >= 2 || undefined, { description: 'the out-of-order message’s events' });
    const events = statusEvents(full[0].id);
    expect(events.map((e) => [e.value.data.status, e.value.id, e.headers[Headers.RequestId]])).toEqual([
      ['delivered', derivedId('evt', 'status', full[0].id, 'delivered'), `req-${full.length}`],
      ['read', derivedId('evt', 'status', full[0].id, 'read'), `req-${2 * full.length}`],
    ]);
    expect(statusEvents(outOfOrder.id).map((e) => e.value.data.status)).toEqual(['delivered', 'read']);
    expect(statusEvents(failed.id).map((e) => e.value.data)).toEqual([expect.objectContaining({ status: 'failed', error: { code: '131026', title: 'Message undeliverable' } })]);

    // Replay (a crash before the offsets were committed): nothing changes, nothing is published.
    const before = await Promise.all([...full, outOfOrder, readOnly, failed, lateFailure].map((m) => row(m.id)));
    const statusRecords = await written(Topics.MessageStatus);
    await webhooks.processMany(batch.map((data, i) => ({ data, requestId: `replay-${i}` })));
    expect(await Promise.all([...full, outOfOrder, readOnly, failed, lateFailure].map((m) => row(m.id)))).toEqual(before);
    expect(await written(Topics.MessageStatus)).toBe(statusRecords);
  });

  it('keeps tenants apart and parks, or accepts by callback data, the statuses of wamids no message carries yet', async () => {
    const ofA = await sentMessage(a);
    const unsent = await sentMessage(b, null); // its send's answer was lost: no wamid recorded
    const early = `wamid.${hex()}`;
    const taken = `wamid.${hex()}`;
    await webhooks.processMany(
      [
        status(b, ofA.wamid, 'read', 1), // tenant B's number naming tenant A's wamid
        status(b, early, 'delivered', 2),
        status(b, taken, 'sent', 3, { biz_opaque_callback_data: unsent.id }),
        status(b, taken, 'delivered', 4, { biz_opaque_callback_data: unsent.id }),
      ].map((data) => ({ data })),
    );
    expect(await row(ofA.id)).toMatchObject({ status: 'sent', announced_statuses: 1 });
    const pending = service.app.get(PendingStatusesService);
    expect(await pending.count(b.id, ofA.wamid)).toBe(1);
    expect(await pending.count(b.id, early)).toBe(1);
    expect(await row(unsent.id)).toMatchObject({ status: 'delivered', status_history: [{ status: 'sent', at: at(0) }, { status: 'delivered', at: at(4) }] });
    expect((await service.sql.query(`SELECT provider_message_id FROM messages WHERE id = $1`, [unsent.id]))[0].provider_message_id).toBe(taken);
    await pollUntil(() => statusEvents(unsent.id).length >= 2 || undefined, { description: 'sent and delivered of the accepted message' });
    expect(statusEvents(unsent.id).map((e) => e.value.data.status)).toEqual(['sent', 'delivered']);
  });

  it('stores a batch mixing customer messages and statuses: one message and one message.inbound per provider id, replays included', async () => {
    const m = await sentMessage(a);
    const [w1, w2, w3] = [`wamid.in${hex()}`, `wamid.in${hex()}`, `wamid.in${hex()}`];
    await webhooks.process(text(a, '4915100000001', w3, 'stored before the batch'));
    await pollUntil(() => service.inbound.find((e) => e.value.data.provider_message_id === w3), { description: 'the earlier message' });
    const batch = [
      text(a, '4915100000001', w1, 'first'),
      status(a, m.wamid, 'delivered', 1),
      text(a, '4915100000002', w2, 'second'),
      text(a, '4915100000001', w1, 'first'), // the provider's redelivery inside the batch
      text(a, '4915100000001', w3, 'stored before the batch'),
      status(a, m.wamid, 'read', 2),
    ];
    await webhooks.processMany(batch.map((data, i) => ({ data, requestId: `mix-${i}` })));

    const stored = (await service.sql.query(`SELECT id, provider_message_id, body, published FROM messages WHERE channel_id = $1 AND direction = 'inbound' ORDER BY seq`, [a.id])) as {
      id: string;
      provider_message_id: string;
      body: string;
      published: boolean;
    }[];
    expect(stored.map((s) => [s.provider_message_id, s.body, s.published])).toEqual([
      [w3, 'stored before the batch', true],
      [w1, 'first', true],
      [w2, 'second', true],
    ]);
    expect(await row(m.id)).toMatchObject({ status: 'read' });
    await pollUntil(() => [w1, w2].every((w) => service.inbound.find((e) => e.value.data.provider_message_id === w)) || undefined, { description: 'the new messages announced' });
    const first = service.inbound.messages.filter((e) => e.value.data.provider_message_id === w1);
    expect(first).toHaveLength(1);
    expect(first[0].value).toMatchObject({ id: derivedId('evt', 'inbound', stored[1].id), tenant_id: a.tenantId, data: { text: 'first', from: '+4915100000001', channel_id: a.id } });
    expect(first[0].headers[Headers.RequestId]).toBe('mix-0');
    const windows = await service.sql.query(`SELECT customer FROM customer_windows WHERE channel_id = $1 ORDER BY customer`, [a.id]);
    expect(windows.map((w: { customer: string }) => w.customer)).toEqual(['+4915100000001', '+4915100000002']);

    const records = await Promise.all([written(Topics.MessageInbound), written(Topics.MessageStatus)]);
    await webhooks.processMany(batch.map((data) => ({ data })));
    expect(await Promise.all([written(Topics.MessageInbound), written(Topics.MessageStatus)])).toEqual(records);
    expect((await service.sql.query(`SELECT count(*)::int AS n FROM messages WHERE channel_id = $1 AND direction = 'inbound'`, [a.id]))[0].n).toBe(3);
    expect(service.inbound.messages.filter((e) => [w1, w2, w3].includes(e.value.data.provider_message_id))).toHaveLength(3);
  });

  it('dead-letters a poison notification of a group after bounded retries, while its neighbours are applied once', async () => {
    const [m1, m2] = [await sentMessage(a), await sentMessage(a)];
    const inboundId = `wamid.in${hex()}`;
    const marker = `poison${hex()}`;
    const poison = `{"object":"whatsapp_business_account","entry":"${marker}"}`;
    const datas: WhatsappWebhookData[] = [
      status(a, m1.wamid, 'delivered', 1),
      { provider: 'meta', channel_id: null, raw_body: poison, received_at: new Date().toISOString() },
      text(a, '4915100000009', inboundId, 'beside the poison'),
      status(a, m2.wamid, 'read', 2),
    ];
    // One publish, one key: the notifications wait in one partition together, as a burst from one number does.
    await service.kafka.publisher.publish(datas.map((data) => ({ topic: Topics.WhatsappWebhook, key: a.phoneNumberId, value: EventPublisher.envelope(Topics.WhatsappWebhook, null, data) })));

    const dead = await pollUntil(() => service.deadLetters.messages.find((m) => JSON.stringify(m.value).includes(marker)), {
      description: 'the poison notification dead-lettered',
      timeoutMs: 30_000,
    });
    expect(dead.headers[Headers.DlqAttempts]).toBe('3');
    expect(dead.headers[Headers.DlqError]).toContain('entry is not a list');
    expect(await row(m1.id)).toMatchObject({ status: 'delivered' });
    expect(await row(m2.id)).toMatchObject({ status: 'read' });
    await pollUntil(() => statusEvents(m2.id).length >= 2 && service.inbound.find((e) => e.value.data.provider_message_id === inboundId), { description: 'the neighbours announced' });
    // Retried as a group, then one by one: every neighbour's announcement is still one event.
    expect(statusEvents(m1.id).map((e) => e.value.data.status)).toEqual(['delivered']);
    expect(statusEvents(m2.id).map((e) => e.value.data.status)).toEqual(['delivered', 'read']);
    expect(service.inbound.messages.filter((e) => e.value.data.provider_message_id === inboundId)).toHaveLength(1);
    expect(service.deadLetters.messages.filter((m) => JSON.stringify(m.value).includes(marker))).toHaveLength(1);
  });
});
