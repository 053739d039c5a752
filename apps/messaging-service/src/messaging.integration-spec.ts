import { Headers, Topics, derivedId, newId, type ChannelRecord, type MessageOutboundData, type WhatsappWebhookData } from '@parley/contracts';
import { EventPublisher, RpcProblemError } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { register } from 'prom-client';
import { ChannelsService } from './channels/channels.service';
import { OutboundSendingNumber1764374400000 } from './database/migrations/1764374400000-OutboundSendingNumber';
import { MessageStatusService } from './messages/message-status.service';
import { PendingStatusesService } from './messages/pending-statuses.service';
import { FakeCloudApi, acceptance, cloudApiErrorBody } from './test/fake-cloud-api';
import { startMessagingService, type MessagingServiceUnderTest } from './test/messaging-service-under-test';

const unix = (iso: string) => String(Math.floor(Date.parse(iso) / 1000));
const wamid = () => `wamid.${randomBytes(12).toString('base64url')}`;

/** A Cloud API notification for one business number. */
function notification(phoneNumberId: string, value: Record<string, unknown>, extraChanges: Record<string, unknown>[] = []) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, ...value } },
          ...extraChanges,
        ],
      },
    ],
  };
}

function textMessage(phoneNumberId: string, from: string, id: string, body: string, name = 'Sheena Nelson') {
  return notification(phoneNumberId, {
    contacts: [{ profile: { name }, wa_id: from }],
    messages: [{ from, id, timestamp: '1749416383', type: 'text', text: { body } }],
  });
}

function statusUpdate(phoneNumberId: string, id: string, status: string, at: string, recipient = '15550001111', callbackData?: string) {
  return notification(phoneNumberId, { statuses: [{ id, status, timestamp: unix(at), recipient_id: recipient, ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}) }] });
}

describe('messaging-service over Kafka, PostgreSQL and a fake Cloud API', () => {
  let service: MessagingServiceUnderTest;
  let sandbox: FakeCloudApi;
  let graph: FakeCloudApi;

  const T1 = `ten_${randomBytes(6).toString('hex')}`;
  let t1Channel: ChannelRecord;
  const customer = '+15550001111';
  let firstMessageId = '';

  beforeAll(async () => {
    [sandbox, graph] = await Promise.all([FakeCloudApi.start(), FakeCloudApi.start()]);
    service = await startMessagingService('messaging', {
      SANDBOX_URL: sandbox.url,
      SANDBOX_ENABLED: 'true',
      GRAPH_API_BASE_URL: graph.url,
      // A provider is "slow" after 1 s here; an unanswered send waits 3 s for a status naming it.
      WHATSAPP_PROVIDER_TIMEOUT_MS: '1000',
      WHATSAPP_UNCONFIRMED_SEND_WAIT_MS: '3000',
      WHATSAPP_PAIR_BACKOFF_MS: '1500',
    });
  });

  afterAll(async () => {
    await service?.close();
    await Promise.all([sandbox?.close(), graph?.close()]);
  });

  const outbound = (data: Partial<MessageOutboundData> & Pick<MessageOutboundData, 'to' | 'content'>): MessageOutboundData => ({
    message_id: newId('msg'),
    channel: 'whatsapp',
    from: null,
    origin: 'api',
    accepted_at: new Date().toISOString(),
    ...data,
  });

  const publishOutbound = (tenantId: string, data: MessageOutboundData) =>
    service.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), `${tenantId}:${data.to}`);

  const publishWebhook = (body: unknown, raw = JSON.stringify(body)) => {
    const data: WhatsappWebhookData = { provider: 'meta', channel_id: null, raw_body: raw, received_at: new Date().toISOString() };
    return service.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.WhatsappWebhook, null, data), 'meta');
  };

  /** Publishes an inbound text after everything published before it (same key, same partition) and waits for it. */
  async function webhookBarrier(phoneNumberId: string): Promise<void> {
    const id = wamid();
    await publishWebhook(textMessage(phoneNumberId, '15559990000', id, 'barrier'));
    await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === id), { description: 'the barrier message' });
  }

  const queued = async (messageId: string) =>
    ((await service.sql.query(`SELECT count(*)::int AS n FROM send_queue WHERE message_id = $1`, [messageId])) as { n: number }[])[0].n;
  const statusesOf = (messageId: string) => service.statuses.messages.filter((m) => m.value.data.message_id === messageId);
  const dbRow = async (id: string) =>
    (await service.sql.query(`SELECT provider_message_id, send_attempts, credentials_encrypted FROM messages m LEFT JOIN channels c ON c.id = m.channel_id WHERE m.id = $1`, [id]))[0] as {
      provider_message_id: string | null;
      send_attempts: number;
      credentials_encrypted: string | null;
    };

  it('provisions a sandbox number over RPC (first channel is the default; a retry provisions nothing new), lists and resolves it', async () => {
    t1Channel = await service.kafka.rpc.request('channels.provision-sandbox', { tenant_id: T1 });
    const number = sandbox.provisioned.at(-1)!;
    expect(t1Channel).toEqual({
      id: expect.stringMatching(/^chn_/),
      channel: 'whatsapp',
      provider: 'sandbox',
      phone_number: number.phone_number,
      phone_number_id: number.phone_number_id,
      waba_id: null,
      status: 'connected',
      agent: null,
      is_default: true,
      send_limit_per_second: null,
      created_at: expect.any(String),
    });

    const again = await service.kafka.rpc.request('channels.provision-sandbox', { tenant_id: T1 });
    expect(again.id).toBe(t1Channel.id);
    expect(sandbox.provisioned).toHaveLength(1);

    expect(await service.kafka.rpc.request('channels.list', { tenant_id: T1, limit: 50, cursor: null })).toEqual({ data: [t1Channel], next_cursor: null });
    expect((await service.kafka.rpc.request('channels.list', { tenant_id: 'ten_nobody', limit: 50, cursor: null })).data).toEqual([]);
    expect(await service.kafka.rpc.request('channels.resolve-sender', { tenant_id: T1, phone_number: number.phone_number })).toEqual(t1Channel);
    await expect(service.kafka.rpc.request('channels.resolve-sender', { tenant_id: 'ten_other', phone_number: number.phone_number })).rejects.toMatchObject({
      problem: { status: 404 },
    });
    const stored = await service.sql.query(`SELECT credentials_encrypted FROM channels WHERE id = $1`, [t1Channel.id]);
    expect(stored[0].credentials_encrypted).toMatch(/^v1:/);
  });

  it('sends a text through the Cloud API route once, records the wamid, and announces sent', async () => {
    const data = outbound({ to: customer, content: { type: 'text', text: 'Your order has shipped.' } });
    firstMessageId = data.message_id;
    await publishOutbound(T1, data);

    const send = await pollUntil(() => sandbox.sendsTo(customer)[0], { description: 'the Cloud API send' });
    expect(send.version).toBe('v21.0');
    expect(send.phoneNumberId).toBe(t1Channel.phone_number_id!);
    expect(send.authorization).toBe('Bearer sandbox');
    expect(send.contentType).toBe('application/json');
    expect(send.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: customer,
      type: 'text',
      text: { body: 'Your order has shipped.' },
      biz_opaque_callback_data: data.message_id,
    });

    const sent = await pollUntil(() => statusesOf(data.message_id)[0], { description: 'message.status sent' });
    expect(sent.key).toBe(`${T1}:${customer}`);
    expect(sent.value).toMatchObject({ type: 'message.status', tenant_id: T1, id: derivedId('evt', 'status', data.message_id, 'sent') });
    expect(sent.value.data).toEqual({ event: 'message.status', channel: 'whatsapp', tenant_id: T1, message_id: data.message_id, status: 'sent', to: customer, at: data.accepted_at });
    // no campaign's: campaign-service skips its statuses unread
    expect(sent.headers[Headers.Campaign]).toBe('no');

    expect(await service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: data.message_id })).toEqual({
      message_id: data.message_id,
      direction: 'outbound',
      channel: 'whatsapp',
      from: t1Channel.phone_number,
      to: customer,
      type: 'text',
      message: 'Your order has shipped.',
      status: 'sent',
      status_history: [{ status: 'sent', at: data.accepted_at }],
      created_at: expect.any(String),
    });
    expect(await dbRow(data.message_id)).toMatchObject({ provider_message_id: send.wamid, send_attempts: 1 });

    // A redelivered or re-published send with the same message_id sends nothing more.
    await publishOutbound(T1, data);
    const barrier = outbound({ to: customer, content: { type: 'text', text: 'barrier' } });
    await publishOutbound(T1, barrier);
    await pollUntil(() => statusesOf(barrier.message_id)[0], { description: 'the barrier send' });
    expect(sandbox.sendsTo(customer).filter((s) => (s.body.text as { body: string }).body === 'Your order has shipped.')).toHaveLength(1);
    expect(statusesOf(data.message_id)).toHaveLength(1);
  });

  it("says on a campaign's message's statuses that they are a campaign's (the campaign header its message.outbound carried)", async () => {
    const data = outbound({ to: '+15550007788', content: { type: 'text', text: 'Spring sale' }, campaign_id: 'cmp_spring' });
    await publishOutbound(T1, data);
    const sent = await pollUntil(() => statusesOf(data.message_id)[0], { description: "the campaign message's sent" });
    expect(sent.headers[Headers.Campaign]).toBe('yes');
    const providerId = (await dbRow(data.message_id)).provider_message_id!;
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, providerId, 'delivered', new Date().toISOString()));
    const delivered = await pollUntil(() => statusesOf(data.message_id)[1], { description: "the campaign message's delivered" });
    expect([delivered.value.data.status, delivered.headers[Headers.Campaign]]).toEqual(['delivered', 'yes']);
  });

  it('wakes the idle send queue by NOTIFY, also after its LISTEN connection was cut (it reconnects and looks once)', async () => {
    const listener = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'messaging-send-queue'`;
    const [before] = (await service.sql.query(listener)) as { pid: number }[];
    expect(before).toBeDefined();
    await service.sql.query(`SELECT pg_terminate_backend($1)`, [before.pid]);
    await pollUntil(async () => ((await service.sql.query(listener)) as { pid: number }[]).find((r) => r.pid !== before.pid), { description: 'the LISTEN connection back' });

    const data = outbound({ to: '+15550004747', content: { type: 'text', text: 'After the reconnect.' } });
    await publishOutbound(T1, data);
    // Well inside the worker's 30 s safety sweep: the queue's NOTIFY (or the look after reconnecting) woke it.
    await pollUntil(() => sandbox.sendsTo('+15550004747')[0], { description: 'the send queued after the reconnect', timeoutMs: 15_000 });
  });

  it("records a message as soon as it is consumed and hides it from other tenants", async () => {
    await expect(service.kafka.rpc.request('messages.get', { tenant_id: 'ten_intruder', message_id: firstMessageId })).rejects.toMatchObject({ problem: { status: 404 } });
    await expect(service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: 'msg_01JZZZZZZZZZZZZZZZZZZZZZZZ' })).rejects.toBeInstanceOf(RpcProblemError);
  });

  it('sends from a meta channel with its own token and the Graph base URL, as a template', async () => {
    const tenant = `ten_${randomBytes(6).toString('hex')}`;
    const channel = await service.app.get(ChannelsService).connect(tenant, {
      provider: 'meta',
      phone_number: '+1 555 020 0000',
      phone_number_id: `pn_${randomBytes(4).toString('hex')}`,
      access_token: 'EAAG-test-access-token',
      agent: 'support',
    });
    expect(channel).toMatchObject({ phone_number: '+15550200000', is_default: true, agent: 'support' });

    const template = { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }] };
    const data = outbound({ from: '+15550200000', to: '+15550002222', content: { type: 'template', template } });
    await publishOutbound(tenant, data);

    const send = await pollUntil(() => graph.sendsTo('+15550002222')[0], { description: 'the Graph API send' });
    expect(send.authorization).toBe('Bearer EAAG-test-access-token');
    expect(send.phoneNumberId).toBe(channel.phone_number_id);
    expect(send.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '+15550002222', type: 'template', template, biz_opaque_callback_data: data.message_id });
    await pollUntil(() => statusesOf(data.message_id)[0], { description: 'message.status sent' });
    expect(await service.kafka.rpc.request('messages.get', { tenant_id: tenant, message_id: data.message_id })).toMatchObject({
      type: 'template',
      message: '[template] order_update',
      from: '+15550200000',
    });
    const stored = await service.sql.query(`SELECT credentials_encrypted FROM channels WHERE id = $1`, [channel.id]);
    expect(stored[0].credentials_encrypted).not.toContain('EAAG');
  });

  it('fails a message the provider refuses for good, with its code and title, and announces only the failure', async () => {
    const to = '+15550003333';
    sandbox.answerNext(to, 400, cloudApiErrorBody(131026, 'Message undeliverable'));
    const data = outbound({ to, content: { type: 'text', text: 'Are you there?' } });
    await publishOutbound(T1, data);

    const failed = await pollUntil(() => statusesOf(data.message_id).find((m) => m.value.data.status === 'failed'), { description: 'message.status failed' });
    expect(failed.key).toBe(`${T1}:${to}`);
    expect(failed.value.data).toMatchObject({ status: 'failed', to, error: { code: '131026', title: 'Message undeliverable' } });
    expect(statusesOf(data.message_id).map((m) => m.value.data.status)).toEqual(['failed']);
    const record = await service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: data.message_id });
    expect(record).toMatchObject({ status: 'failed', error: { code: '131026', title: 'Message undeliverable' } });
    expect(record.status_history.map((e) => e.status)).toEqual(['sent', 'failed']);
    expect(sandbox.sendsTo(to)).toHaveLength(1);
  });

  it('retries a rate-limited send and sends it once it is accepted', async () => {
    const to = '+15550004444';
    sandbox.answerNext(to, 400, cloudApiErrorBody(130429, 'Rate limit hit'));
    const data = outbound({ to, content: { type: 'text', text: 'Retry me' } });
    await publishOutbound(T1, data);

    await pollUntil(() => statusesOf(data.message_id).find((m) => m.value.data.status === 'sent'), { description: 'message.status sent after a retry' });
    expect(sandbox.sendsTo(to)).toHaveLength(2);
    expect(await dbRow(data.message_id)).toMatchObject({ provider_message_id: sandbox.sendsTo(to)[1].wamid, send_attempts: 2 });
  });

  it('fails a message of a tenant with no connected number', async () => {
    const data = outbound({ to: '+15550005555', content: { type: 'text', text: 'Hello?' } });
    await publishOutbound('ten_without_numbers', data);
    const failed = await pollUntil(() => statusesOf(data.message_id)[0], { description: 'message.status failed' });
    expect(failed.value.data).toMatchObject({ status: 'failed', error: { code: 'no_channel', title: 'The tenant has no connected WhatsApp number' } });
  });

  it('shows the sending number as `from` from the moment a send is recorded, also when it fails before reaching a provider', async () => {
    const tenant = `ten_${randomBytes(6).toString('hex')}`;
    const channels = service.app.get(ChannelsService);
    const main = await channels.connect(tenant, { provider: 'meta', phone_number: '+1 555 040 0000', phone_number_id: `pn_${randomBytes(4).toString('hex')}`, access_token: 'EAAG-main' });
    const second = await channels.connect(tenant, { provider: 'meta', phone_number: '+1 555 040 0001', phone_number_id: `pn_${randomBytes(4).toString('hex')}`, access_token: 'EAAG-second' });
    expect([main.is_default, second.is_default]).toEqual([true, false]);
    // Free-form texts to customers who never wrote: outside the 24-hour window of a meta channel, each fails (131047)
    // without a provider call, so no send attempt ever names its channel.
    const fromDefault = outbound({ to: '+15550004040', content: { type: 'text', text: 'Still interested?' } });
    const onSecond = outbound({ to: '+15550004041', channel_id: second.id, content: { type: 'text', text: 'A reply on the second number' } });
    await publishOutbound(tenant, fromDefault);
    await publishOutbound(tenant, onSecond);

    for (const [data, number] of [
      [fromDefault, '+15550400000'],
      [onSecond, '+15550400001'],
    ] as const) {
      const failed = await pollUntil(() => statusesOf(data.message_id)[0], { description: 'message.status failed' });
      expect(failed.value.data).toMatchObject({ status: 'failed', error: { code: '131047' } });
      expect(await service.kafka.rpc.request('messages.get', { tenant_id: tenant, message_id: data.message_id })).toMatchObject({ from: number, to: data.to, status: 'failed' });
    }
    expect(graph.sendsTo('+15550004040')).toEqual([]);
    expect((await service.kafka.rpc.request('messages.list', { tenant_id: tenant, from: '+15550400001', limit: 50, cursor: null })).data.map((m) => m.message_id)).toEqual([onSecond.message_id]);

    // A record stored before intake wrote the number (from NULL, no attempt yet) gets its channel's number from the migration.
    const stored = newId('msg');
    await service.sql.query(
      `INSERT INTO messages (id, tenant_id, direction, "to", type, body, status, status_history) VALUES ($1, $2, 'outbound', '+15550004042', 'text', 'old', 'failed', '[]')`,
      [stored, tenant],
    );
    expect(await service.kafka.rpc.request('messages.get', { tenant_id: tenant, message_id: stored })).toMatchObject({ from: '' });
    const runner = service.sql.createQueryRunner();
    try {
      await new OutboundSendingNumber1764374400000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await service.kafka.rpc.request('messages.get', { tenant_id: tenant, message_id: stored })).toMatchObject({ from: '+15550400000' });
  });

  it('sees a channel change at once although sends reuse looked-up channels (the cache clears on change)', async () => {
    const tenant = `ten_${randomBytes(6).toString('hex')}`;
    const channels = service.app.get(ChannelsService);
    const channel = await channels.connect(tenant, { provider: 'meta', phone_number: '+1 555 030 0000', phone_number_id: `pn_${randomBytes(4).toString('hex')}`, access_token: 'EAAG-old-token' });
    const first = outbound({ to: '+15550003030', content: { type: 'template', template: { name: 'hello', language: { code: 'en' } } } });
    await publishOutbound(tenant, first);
    await pollUntil(() => statusesOf(first.message_id)[0], { description: 'the first send' });

    await channels.remove(tenant, channel.id);
    const second = outbound({ to: '+15550003030', content: { type: 'template', template: { name: 'hello', language: { code: 'en' } } } });
    await publishOutbound(tenant, second);
    const failed = await pollUntil(() => statusesOf(second.message_id)[0], { description: 'message.status failed' });
    expect(failed.value.data).toMatchObject({ status: 'failed', error: { code: 'no_channel' } });
    expect(graph.sendsTo('+15550003030')).toHaveLength(1);
  });

  it('turns an inbound text into exactly one message.inbound, also when the provider redelivers it', async () => {
    const id = wamid();
    const body = textMessage(t1Channel.phone_number_id!, '16505551234', id, 'Does it come in another color?');
    // An unknown number in the same payload is skipped without losing the known one.
    body.entry[0].changes.unshift(textMessage('unknown-number', '15551110000', wamid(), 'to nobody').entry[0].changes[0]);
    await publishWebhook(body);

    const event = await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === id), { description: 'message.inbound' });
    expect(event.key).toBe(`${T1}:+16505551234`);
    expect(event.value).toMatchObject({ type: 'message.inbound', tenant_id: T1, id: derivedId('evt', 'inbound', event.value.data.message_id) });
    expect(event.value.data).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      channel: 'whatsapp',
      channel_id: t1Channel.id,
      from: '+16505551234',
      from_user_id: null,
      to: t1Channel.phone_number,
      type: 'text',
      text: 'Does it come in another color?',
      provider_message_id: id,
      sent_at: '2025-06-08T20:59:43.000Z',
      received_at: expect.any(String),
      channel_agent: null,
      contact_name: 'Sheena Nelson',
    });

    await publishWebhook(body);
    await webhookBarrier(t1Channel.phone_number_id!);
    expect(service.inbound.messages.filter((m) => m.value.data.provider_message_id === id)).toHaveLength(1);

    expect(await service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: event.value.data.message_id })).toMatchObject({
      direction: 'inbound',
      from: '+16505551234',
      to: t1Channel.phone_number,
      type: 'text',
      message: 'Does it come in another color?',
      status: 'received',
    });
  });

  // Media (downloaded before it is announced) is covered by media.integration-spec.ts and the media e2e.
  it('gives non-text messages their type and a text stand-in', async () => {
    const id = wamid();
    await publishWebhook(
      notification(t1Channel.phone_number_id!, {
        contacts: [{ profile: { name: 'Ana' }, wa_id: '351900000000' }],
        messages: [{ from: '351900000000', id, timestamp: '1749416383', type: 'location', location: { latitude: 52.1, longitude: 4.3, name: 'Our storefront' } }],
      }),
    );
    const event = await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === id), { description: 'message.inbound for the location' });
    expect(event.value.data).toMatchObject({ type: 'location', text: '[location] Our storefront (52.1, 4.3)', from: '+351900000000', contact_name: 'Ana' });
  });

  it('moves statuses one way: delivered, read, then a late sent changes nothing', async () => {
    const providerId = (await dbRow(firstMessageId)).provider_message_id!;
    const [t1, t2, t3] = [1, 2, 3].map((s) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString());
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, providerId, 'delivered', t1));
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, providerId, 'read', t2));
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, providerId, 'sent', t3));
    await webhookBarrier(t1Channel.phone_number_id!);

    const record = await service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: firstMessageId });
    expect(record.status).toBe('read');
    expect(record.status_history).toEqual([expect.objectContaining({ status: 'sent' }), { status: 'delivered', at: t1 }, { status: 'read', at: t2 }]);
    const events = statusesOf(firstMessageId);
    expect(events.map((m) => m.value.data.status)).toEqual(['sent', 'delivered', 'read']);
    expect(events[2].value.data).toEqual({ event: 'message.status', channel: 'whatsapp', tenant_id: T1, message_id: firstMessageId, status: 'read', to: customer, at: t2 });
  });

  it('answers many messages’ statuses at once (the inbox’s ticks), a failure with its reason, leaving out other tenants’ and unknown ids', async () => {
    const to = '+15550003334';
    sandbox.answerNext(to, 400, cloudApiErrorBody(131026, 'Message undeliverable'));
    const failing = outbound({ to, content: { type: 'text', text: 'Still there?' } });
    await publishOutbound(T1, failing);
    await pollUntil(() => statusesOf(failing.message_id).find((m) => m.value.data.status === 'failed'), { description: 'message.status failed' });

    const unknown = 'msg_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    const { data } = await service.kafka.rpc.request('messages.statuses', { tenant_id: T1, message_ids: [firstMessageId, failing.message_id, unknown] });
    expect([...data].sort((a, b) => a.message_id.localeCompare(b.message_id))).toEqual(
      [
        { message_id: firstMessageId, status: 'read' },
        { message_id: failing.message_id, status: 'failed', error: { code: '131026', title: 'Message undeliverable' } },
      ].sort((a, b) => a.message_id.localeCompare(b.message_id)),
    );
    expect((await service.kafka.rpc.request('messages.statuses', { tenant_id: 'ten_intruder', message_ids: [firstMessageId] })).data).toEqual([]);
    expect((await service.kafka.rpc.request('messages.statuses', { tenant_id: T1, message_ids: [] })).data).toEqual([]);
    await expect(service.kafka.rpc.request('messages.statuses', { tenant_id: T1, message_ids: Array.from({ length: 1001 }, () => unknown) })).rejects.toMatchObject({
      problem: { status: 400, errors: [{ field: 'message_ids', message: expect.stringContaining('at most 1000') }] },
    });
  });

  it('parks a status for an unknown wamid without holding up its partition, and applies it when a send records that wamid', async () => {
    // Observe (not replace) the lookup: the status is looked up once, never retried in the consumer.
    const lookup = jest.spyOn(service.app.get(MessageStatusService), 'findByProviderId');
    const early = wamid();
    const deliveredAt = new Date(Date.UTC(2026, 0, 2, 9, 0, 0)).toISOString();
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, early, 'delivered', deliveredAt));
    await webhookBarrier(t1Channel.phone_number_id!);
    expect(await service.app.get(PendingStatusesService).count(t1Channel.id, early)).toBe(1);
    expect(lookup.mock.calls.filter(([, , id]) => id === early)).toHaveLength(2); // on arrival, and once more after parking
    lookup.mockRestore();

    // Now the send that gets this wamid is recorded: the parked status applies to it.
    const to = '+15550006666';
    sandbox.answerNext(to, 200, acceptance(to, early));
    const data = outbound({ to, content: { type: 'text', text: 'Status before send' } });
    await publishOutbound(T1, data);
    await pollUntil(() => statusesOf(data.message_id).find((m) => m.value.data.status === 'delivered'), { description: 'the parked delivered status applied' });
    expect(statusesOf(data.message_id).map((m) => m.value.data.status)).toEqual(['sent', 'delivered']);
    const record = await service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: data.message_id });
    expect(record.status_history).toEqual([{ status: 'sent', at: data.accepted_at }, { status: 'delivered', at: deliveredAt }]);
    expect(await service.app.get(PendingStatusesService).count(t1Channel.id, early)).toBe(0);
  });

  it('expires parked statuses whose message never appears', async () => {
    const orphan = wamid();
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, orphan, 'read', new Date().toISOString()));
    await webhookBarrier(t1Channel.phone_number_id!);
    const pending = service.app.get(PendingStatusesService);
    expect(await pending.count(t1Channel.id, orphan)).toBe(1);
    await service.sql.query(`UPDATE pending_statuses SET expires_at = now() - interval '1 second' WHERE provider_message_id = $1`, [orphan]);
    expect(await pending.expire()).toBeGreaterThanOrEqual(1);
    expect(await pending.count(t1Channel.id, orphan)).toBe(0);
  });

  it('does not send again when a timed-out send is named by its status (biz_opaque_callback_data): the provider took it', async () => {
    const to = '+15550007777';
    sandbox.answerNextLate(to, 2_500); // accepted, but answered after the 1 s time-out
    const data = outbound({ to, content: { type: 'text', text: 'Slow provider' } });
    await publishOutbound(T1, data);
    const send = await pollUntil(() => sandbox.sendsTo(to).find((s) => s.wamid), { description: 'the slow send' });
    expect(send.body.biz_opaque_callback_data).toBe(data.message_id);

    // The provider reports the message it took, naming our message: that records it as sent.
    const at = new Date().toISOString();
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, send.wamid!, 'sent', at, to.slice(1), data.message_id));
    await publishWebhook(statusUpdate(t1Channel.phone_number_id!, send.wamid!, 'delivered', at, to.slice(1), data.message_id));
    await pollUntil(() => statusesOf(data.message_id).find((m) => m.value.data.status === 'delivered'), { description: 'delivered via the status' });
    await pollUntil(async () => (await queued(data.message_id)) === 0 || undefined, { description: 'the send leaving the queue' });
    expect(await dbRow(data.message_id)).toMatchObject({ provider_message_id: send.wamid, send_attempts: 1 });
    expect(sandbox.sendsTo(to)).toHaveLength(1);
  });

  it('sends an unanswered message again only after no status named it within the wait', async () => {
    const to = '+15550008888';
    sandbox.answerNextLate(to, 2_500);
    const data = outbound({ to, content: { type: 'text', text: 'Lost answer' } });
    await publishOutbound(T1, data);
    const sent = await pollUntil(() => statusesOf(data.message_id).find((m) => m.value.data.status === 'sent'), { description: 'sent after the wait', timeoutMs: 20_000 });
    const [first, second] = sandbox.sendsTo(to);
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(3_000 - 50);
    expect(sent.value.data.status).toBe('sent');
    expect(await dbRow(data.message_id)).toMatchObject({ provider_message_id: second.wamid, send_attempts: 2 });
  });

  it('does not send again while reports that came within the wait are unread (its consumer behind), and not at all once one names it', async () => {
    const heldRepeats = async () => (await register.getSingleMetric('messaging_repeats_held_for_reports_total')!.get()).values[0]?.value ?? 0;
    const heldBefore = await heldRepeats();
    // A customer's message gives them a customer window; the spec holds that row, so their next message stops the
    // webhook partition behind it, as a backlog would.
    const writer = '15550004444';
    const hello = wamid();
    await publishWebhook(textMessage(t1Channel.phone_number_id!, writer, hello, 'hello'));
    await pollUntil(() => service.inbound.find((m) => m.value.data.provider_message_id === hello), { description: 'the first message' });
    const holder = service.sql.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      expect(await holder.query(`SELECT 1 FROM customer_windows WHERE customer = $1 FOR UPDATE`, [`+${writer}`])).toHaveLength(1);
      const to = '+15550008899';
      sandbox.answerNextLate(to, 2_500);
      const data = outbound({ to, content: { type: 'text', text: 'Answered late, reported in time' } });
      await publishOutbound(T1, data);
      const send = await pollUntil(() => sandbox.sendsTo(to).find((s) => s.wamid), { description: 'the slow send' });
      await publishWebhook(textMessage(t1Channel.phone_number_id!, writer, wamid(), 'held up'));
      await pollUntil(
        async () => ((await service.sql.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%customer_windows%'`)) as { n: number }[])[0].n > 0,
        { description: "the customer's next message waiting for the held row" },
      );
      // The provider's report naming the message comes in time, behind it.
      await publishWebhook(statusUpdate(t1Channel.phone_number_id!, send.wamid!, 'sent', new Date().toISOString(), to.slice(1), data.message_id));
      // The wait (3 s) runs out with the report unread: the repeat is put off, not made.
      await pollUntil(async () => (await heldRepeats()) > heldBefore || sandbox.sendsTo(to).length > 1, { description: 'the repeat put off (or made)', timeoutMs: 20_000 });
      expect(sandbox.sendsTo(to)).toHaveLength(1);
      await holder.commitTransaction();
      await pollUntil(() => statusesOf(data.message_id).find((m) => m.value.data.status === 'sent'), { description: 'sent via the report' });
      await pollUntil(async () => (await queued(data.message_id)) === 0 || undefined, { description: 'the send leaving the queue' });
      expect(await dbRow(data.message_id)).toMatchObject({ provider_message_id: send.wamid, send_attempts: 1 });
      expect(sandbox.sendsTo(to)).toHaveLength(1);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('backs off one customer after a pair-rate error (131056) while sends to others go on, with the request id on the events', async () => {
    const [paced, other] = ['+15550009991', '+15550009992'];
    sandbox.answerNext(paced, 400, cloudApiErrorBody(131056, '(Business Account, Consumer Account) pair rate limit hit'));
    const first = outbound({ to: paced, content: { type: 'text', text: 'one' } });
    await service.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, T1, first), `${T1}:${paced}`, 'req-pair-rate');
    await pollUntil(() => sandbox.sendsTo(paced)[0], { description: 'the refused send' });
    const otherSend = outbound({ to: other, content: { type: 'text', text: 'two' } });
    await publishOutbound(T1, otherSend);

    const sent = await pollUntil(() => statusesOf(first.message_id).find((m) => m.value.data.status === 'sent'), { description: 'sent after the pause' });
    expect(sent.headers['x-request-id']).toBe('req-pair-rate');
    const [refused, retried] = sandbox.sendsTo(paced);
    expect(retried.receivedAt - refused.receivedAt).toBeGreaterThanOrEqual(1_500 - 50);
    // The other customer did not wait for the paused pair.
    expect(sandbox.sendsTo(other)[0].receivedAt).toBeLessThan(retried.receivedAt);
    expect(await service.kafka.rpc.request('messages.get', { tenant_id: T1, message_id: first.message_id })).toMatchObject({ status: 'sent' });
  });

  it('lists a tenant’s messages newest first, filtered, with a cursor', async () => {
    const first = await service.kafka.rpc.request('messages.list', { tenant_id: T1, direction: 'outbound', to: customer, limit: 1, cursor: null });
    expect(first.data).toHaveLength(1);
    expect(first.data[0].message).toBe('barrier');
    const second = await service.kafka.rpc.request('messages.list', { tenant_id: T1, direction: 'outbound', to: customer, limit: 1, cursor: first.next_cursor });
    expect(second.data.map((m) => m.message_id)).toEqual([firstMessageId]);
    expect(second.next_cursor).toBeNull();

    const inboundOnly = await service.kafka.rpc.request('messages.list', { tenant_id: T1, direction: 'inbound', limit: 50, cursor: null });
    expect(inboundOnly.data.length).toBeGreaterThanOrEqual(2);
    expect(inboundOnly.data.every((m) => m.direction === 'inbound')).toBe(true);
    expect((await service.kafka.rpc.request('messages.list', { tenant_id: 'ten_intruder', limit: 50, cursor: null })).data).toEqual([]);

    const err = await service.kafka.rpc.request('messages.list', { tenant_id: T1, limit: 50, cursor: 'not-a-cursor!', since: 'yesterday' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcProblemError);
    expect((err as RpcProblemError).problem.status).toBe(400);
    expect((err as RpcProblemError).problem.errors?.map((e) => e.field).sort()).toEqual(['cursor', 'since']);
  });

  it('dead-letters a notification that is not a Cloud API notification', async () => {
    await publishWebhook(null, '{"object":"page","entry":[]}');
    await publishWebhook(null, 'not json at all');
    await pollUntil(() => service.deadLetters.messages.length >= 2 || undefined, { description: 'two dead letters' });
    expect(service.deadLetters.messages.map((m) => m.headers['dlq-error'])).toEqual([
      expect.stringContaining('not a whatsapp_business_account notification'),
      expect.stringContaining('not JSON'),
    ]);
  });
});
