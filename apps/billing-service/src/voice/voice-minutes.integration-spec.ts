import { Topics, derivedId, newId, type VoiceCallEndedData } from '@parley/contracts';
import { EventPublisher } from '@parley/kafka';
import { pollUntil } from '@parley/testing';
import { randomBytes } from 'node:crypto';
import { startBillingService, type BillingServiceUnderTest } from '../test/billing-service-under-test';

/** Voice minutes metered from `voice.call_ended` over real Kafka and PostgreSQL (CONTRACT.md §17). */
describe('voice minutes', () => {
  let billing: BillingServiceUnderTest;

  beforeAll(async () => {
    billing = await startBillingService('voicemin');
  }, 120_000);

  afterAll(() => billing?.close());

  const minutesOf = async (tenantId: string) =>
    ((await billing.sql.query(`SELECT quantity::int AS quantity FROM usage_daily WHERE tenant_id = $1 AND channel = 'voice' AND category = 'voice_minute'`, [tenantId])) as { quantity: number }[])[0]?.quantity ?? 0;
  /** A call's end as messaging-service announces it; `eventId` as another announcement of the same call would have. */
  const callEnded = (tenantId: string, callSid: string, billableMinutes: number, eventId = derivedId('evt', 'voice.call_ended', callSid), key = `${tenantId}:${callSid}`) => {
    const data: VoiceCallEndedData = { tenant_id: tenantId, channel_id: newId('chn'), call_sid: callSid, from: '+15550108001', to: '+15550108000', status: 'completed', duration_seconds: billableMinutes * 60 - 5, billable_minutes: billableMinutes, ended_at: new Date().toISOString() };
    return billing.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.VoiceCallEnded, tenantId, data, eventId), key, undefined, { timeoutMs: 10_000 });
  };

  it('adds each call’s started minutes to the day’s voice_minute usage, once per call however often it is announced', async () => {
    const tenantId = newId('ten');
    const first = `CA${randomBytes(16).toString('hex')}`;
    await callEnded(tenantId, first, 3);
    // The same call again: redelivered, and announced anew with another event id (a repeated status callback).
    await callEnded(tenantId, first, 3);
    await callEnded(tenantId, first, 3, newId('evt'));
    await callEnded(tenantId, `CA${randomBytes(16).toString('hex')}`, 2);
    await pollUntil(async () => (await minutesOf(tenantId)) === 5, { description: 'five voice minutes', timeoutMs: 20_000 });
    // A later call on the repeats' partition (their key) is consumed after them: none of them added minutes meanwhile.
    const later = `CA${randomBytes(16).toString('hex')}`;
    await callEnded(tenantId, later, 1, derivedId('evt', 'voice.call_ended', later), `${tenantId}:${first}`);
    await pollUntil(async () => (await minutesOf(tenantId)) === 6, { description: 'six voice minutes', timeoutMs: 20_000 });
    const usage = await billing.kafka.rpc.request('billing.usage', { tenant_id: tenantId, days: 1 });
    expect(usage.data).toEqual([expect.objectContaining({ channel: 'voice', category: 'voice_minute', quantity: 6 })]);
  });

  it('charges the minutes at the price book’s voice_minute price, once per call', async () => {
    const tenantId = newId('ten');
    await billing.kafka.rpc.request('billing.set-plan', { tenant_id: tenantId, plan: 'pro' });
    await billing.kafka.rpc.request('billing.set-prices', { body: { prices: [{ plan: 'pro', category: 'voice_minute', unit_price: '0.02', currency: 'USD' }] } });
    await billing.topUp(tenantId, '10.00');
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    await callEnded(tenantId, callSid, 3);
    await callEnded(tenantId, callSid, 3, newId('evt'));
    const later = `CA${randomBytes(16).toString('hex')}`;
    await callEnded(tenantId, later, 1, derivedId('evt', 'voice.call_ended', later), `${tenantId}:${callSid}`);
    // 3 + 1 minutes at 0.02: the repeated announcement of the first call charged nothing more.
    const wallet = await billing.walletReaching(tenantId, 'both calls charged', (w) => w.balance === '9.920000');
    expect(wallet).toMatchObject({ balance: '9.920000', held: '0.000000' });
    expect(await minutesOf(tenantId)).toBe(4);
  });

  it('meters the agent’s spoken replies as part of the call, not as messages', async () => {
    const tenantId = newId('ten');
    const caller = '+15550108002';
    const reply = (channel: 'voice' | 'whatsapp') => {
      const data = { message_id: newId('msg'), channel, channel_id: newId('chn'), from: '+15550108000', to: caller, content: { type: 'text' as const, text: 'We open at nine.' }, origin: 'agent' as const, accepted_at: new Date().toISOString() };
      return billing.kafka.publisher.publishEvent(EventPublisher.envelope(Topics.MessageOutbound, tenantId, data), `${tenantId}:${caller}`, undefined, { timeoutMs: 10_000 });
    };
    await reply('voice');
    // Behind it on the same key: once this one is metered, the voice reply was consumed before it.
    await reply('whatsapp');
    const usage = async () => (await billing.kafka.rpc.request('billing.usage', { tenant_id: tenantId, days: 1 })).data;
    await pollUntil(async () => (await usage()).length > 0, { description: 'the WhatsApp reply metered', timeoutMs: 20_000 });
    expect(await usage()).toEqual([expect.objectContaining({ channel: 'whatsapp', category: 'service', quantity: 1 })]);
  });

  it('meters nothing for a call never answered', async () => {
    const tenantId = newId('ten');
    await callEnded(tenantId, `CA${randomBytes(16).toString('hex')}`, 0);
    await callEnded(tenantId, `CA${randomBytes(16).toString('hex')}`, 1);
    await pollUntil(async () => (await minutesOf(tenantId)) === 1, { description: 'the answered call metered', timeoutMs: 20_000 });
    expect(await minutesOf(tenantId)).toBe(1);
  });
});
