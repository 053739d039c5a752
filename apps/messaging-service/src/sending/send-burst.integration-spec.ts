import { Topics, newId, type MessageOutboundData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { FakeCloudApi } from '../test/fake-cloud-api';
import { startMessagingService, type MessagingServiceUnderTest } from '../test/messaging-service-under-test';

/**
 * The batched send path under a burst: many sends in flight at once (their recordings detached from the next
 * provider call, their ingest written by concurrent batches) still send each message once, a replay sends nothing
 * again, and a number's own limit still paces its sends.
 */
describe('messaging-service send path under a burst', () => {
  let service: MessagingServiceUnderTest;
  let sandbox: FakeCloudApi;

  beforeAll(async () => {
    sandbox = await FakeCloudApi.start();
    // The provider gets 30 s, not 5: with 600 sends in flight on a loaded 2-core machine, a few of them once reached the
    // fake provider only as their 5 s ran out, so their outcome was unknown and, no status naming them within a minute,
    // they were sent again (as designed). This spec is about the burst path sending once, not about that time-out.
    service = await startMessagingService('msgburst', { SANDBOX_URL: sandbox.url, SANDBOX_ENABLED: 'true', WHATSAPP_PROVIDER_TIMEOUT_MS: '30000' });
  });

  afterAll(async () => {
    await service?.close();
    await sandbox?.close();
  });

  const tenant = () => `ten_${randomBytes(6).toString('hex')}`;
  const connect = (tenantId: string) => service.kafka.rpc.request('channels.connect', { tenant_id: tenantId, body: { provider: 'sandbox' } });
  const outbound = (to: string, text: string): MessageOutboundData => ({
    message_id: newId('msg'),
    channel: 'whatsapp',
    from: null,
    to,
    content: { type: 'text', text },
    origin: 'api',
    accepted_at: new Date().toISOString(),
  });
  const publish = (tenantId: string, data: MessageOutboundData) =>
    service.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), `${tenantId}:${data.to}`);
  const sentEvents = (messageId: string) => service.statuses.messages.filter((m) => m.value.data.message_id === messageId && m.value.data.status === 'sent');
  const providerSends = (messageId: string) => sandbox.sends.filter((s) => s.body.biz_opaque_callback_data === messageId);
  const allSent = (messages: MessageOutboundData[], description: string) =>
    // 3–15 s here; 45 s ran out once in a fresh-clone run with three suites at once on 2 cores
    pollUntil(() => messages.every((m) => sentEvents(m.message_id).length > 0) || undefined, { description, timeoutMs: 90_000 });

  it('sends each message of a 600-message burst once, records its wamid and announces sent once; a replay sends nothing again', async () => {
    const T = tenant();
    await connect(T);
    // 150 customers, 4 messages each: many conversations in flight at once, and several messages per conversation.
    const burst = Array.from({ length: 600 }, (_, i) => outbound(`+1555041${String(i % 150).padStart(4, '0')}`, `burst ${i}`));
    await Promise.all(burst.map((m) => publish(T, m)));
    await allSent(burst, 'every message of the burst announced sent');

    const rows = (await service.sql.query(`SELECT id, provider_message_id FROM messages WHERE tenant_id = $1 AND direction = 'outbound'`, [T])) as {
      id: string;
      provider_message_id: string | null;
    }[];
    const wamidOf = new Map(rows.map((r) => [r.id, r.provider_message_id]));
    for (const m of burst) {
      const sends = providerSends(m.message_id);
      expect(sends).toHaveLength(1);
      expect(wamidOf.get(m.message_id)).toBe(sends[0].wamid);
      expect(new Set(sentEvents(m.message_id).map((e) => e.value.id)).size).toBe(1);
    }
    expect(await service.sql.query(`SELECT message_id FROM send_queue WHERE tenant_id = $1`, [T])).toEqual([]);

    // The same events again (a consumer replay), then one fresh message per customer behind them on each key.
    await Promise.all(burst.map((m) => publish(T, m)));
    const behind = Array.from({ length: 150 }, (_, i) => outbound(`+1555041${String(i).padStart(4, '0')}`, `behind ${i}`));
    await Promise.all(behind.map((m) => publish(T, m)));
    await allSent(behind, 'the messages behind the replay announced sent');
    for (const m of burst) {
      expect(providerSends(m.message_id)).toHaveLength(1);
      expect(new Set(sentEvents(m.message_id).map((e) => e.value.id)).size).toBe(1);
    }
    expect(await service.sql.query(`SELECT message_id FROM send_queue WHERE tenant_id = $1`, [T])).toEqual([]);
  }, 240_000);

  it('paces a limited number to its limit while an unlimited number’s burst goes out alongside at once', async () => {
    const T = tenant();
    const limited = await connect(T);
    const unlimited = await connect(T);
    await service.kafka.rpc.request('channels.update', { tenant_id: T, channel_id: limited.id, body: { send_limit_per_second: 10 } });
    const slow = Array.from({ length: 30 }, (_, i) => ({ ...outbound(`+1555042${String(i).padStart(4, '0')}`, `limited ${i}`), from: limited.phone_number }));
    const fast = Array.from({ length: 300 }, (_, i) => ({ ...outbound(`+1555043${String(i).padStart(4, '0')}`, `unlimited ${i}`), from: unlimited.phone_number }));
    await Promise.all([...slow, ...fast].map((m) => publish(T, m)));
    await allSent([...slow, ...fast], 'both bursts announced sent');

    const times = (phoneNumberId: string | null) =>
      sandbox.sends
        .filter((s) => s.phoneNumberId === phoneNumberId)
        .map((s) => s.receivedAt)
        .sort((a, b) => a - b);
    const paced = times(limited.phone_number_id);
    expect(paced).toHaveLength(30);
    // 30 slots 100 ms apart: about 2.9 s. The fake stamps arrivals in this process, which the service shares: a stall
    // of its event loop hands over the sends held up in one turn, so the busiest second of a loaded run held 13, 14 and
    // 15 (three test workers and more on 2 cores). What a stall cannot move: the span, and the typical gap, a slot's
    // 100 ms (unpaced, a few ms; at twice the limit, 50). Unpaced, all 30 would land in one second.
    expect(paced[29] - paced[0]).toBeGreaterThanOrEqual(2_500);
    const gaps = paced.slice(1).map((t, i) => t - paced[i]).sort((a, b) => a - b);
    expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(80);
    expect(Math.max(...paced.map((t) => paced.filter((u) => u >= t && u < t + 1000).length))).toBeLessThan(20);
    // The unlimited number is not held to that pace: its 300 sends arrive faster than 10 a second would allow.
    const free = times(unlimited.phone_number_id);
    expect(free).toHaveLength(300);
    expect(free[299] - free[0]).toBeLessThan(29_000);
  });
});
