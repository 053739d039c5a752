import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type MessageInboundEvent, type MessageStatusEvent, type OutboundStatus } from '@parley/contracts';
import { countStatements } from '@parley/service-kit';
import { startCampaignService, type CampaignServiceUnderTest } from '../test/campaign-service-under-test';
import { CampaignResultsConsumer } from './campaign-results.consumer';


function status(tenantId: string, messageId: string, s: OutboundStatus): MessageStatusEvent {
  return EventPublisher.envelope(Topics.MessageStatus, tenantId, { event: 'message.status', channel: 'whatsapp', tenant_id: tenantId, message_id: messageId, status: s, to: '+4915100000001', at: new Date().toISOString() });
}

/** Issue 19: the statuses of messages that are no campaign's (most of them) cost one statement per consumed batch. */
describe('campaign-service: statuses of other messages', () => {
  let campaigns: CampaignServiceUnderTest;
  beforeAll(async () => {
    // The sender's sweep would run its own statements in between: it sleeps through this spec.
    campaigns = await startCampaignService('campaign-results', { CAMPAIGN_SWEEP_MS: '60000' });
  });
  afterAll(() => campaigns?.close());

  it('picks the campaign messages out of the key groups consumed side by side in one statement, and applies none', async () => {
    const consumer = campaigns.app.get(CampaignResultsConsumer);
    const tenant = newId('ten');
    const [a, b] = [newId('msg'), newId('msg')];
    const groups = [[status(tenant, a, 'sent'), status(tenant, a, 'delivered'), status(tenant, a, 'read')], [status(tenant, b, 'sent'), status(tenant, b, 'failed')]];
    expect(await countStatements(() => Promise.all(groups.map((events) => consumer.onStatus(events))))).toBe(1);
  });
});

/** Issue 19: a batch of campaign messages' statuses is written in a constant number of statements, counted exactly. */
describe('campaign-service: statuses of campaign messages', () => {
  let campaigns: CampaignServiceUnderTest;
  beforeAll(async () => {
    campaigns = await startCampaignService('campaign-results-apply', { CAMPAIGN_SWEEP_MS: '60000' });
  });
  afterAll(() => campaigns?.close());

  /** A running campaign of `size` recipients, each `queued` (as the sender leaves them), written directly. */
  async function runningCampaign(tenant: string, size: number): Promise<{ id: string; messages: string[] }> {
    const id = newId('cpg');
    await campaigns.sql.query(
      `INSERT INTO campaigns (id, tenant_id, name, template, audience, status, rate_per_second, audience_count, queued)
       VALUES ($1, $2, 'Spring', '{}', '{}', 'running', 10, $3, $3)`,
      [id, tenant, size],
    );
    const messages = Array.from({ length: size }, () => newId('msg'));
    await campaigns.sql.query(
      `INSERT INTO campaign_recipients (campaign_id, tenant_id, contact_id, phone, message_id, status, queued_at)
       SELECT $1, $2, 'ct_' || n, '+1415555' || lpad(n::text, 4, '0'), m, 'queued', now() FROM unnest($3::text[]) WITH ORDINALITY AS u(m, n)`,
      [id, tenant, messages],
    );
    return { id, messages };
  }

  const counts = async (id: string) =>
    ((await campaigns.sql.query(`SELECT status, queued, sent, delivered, "read", failed, status_reason FROM campaigns WHERE id = $1`, [id])) as Record<string, unknown>[])[0];

  it('applies the key groups consumed side by side in one transaction: each status once, in order, and a spam block pauses the campaign', async () => {
    const consumer = campaigns.app.get(CampaignResultsConsumer);
    const tenant = newId('ten');
    const { id, messages } = await runningCampaign(tenant, 12);
    const [blocked, ...rest] = messages;
    const groups = [
      // the provider's order per message; one delivered twice, one read before delivered, one stale sent after read
      ...rest.slice(0, 10).map((m) => [status(tenant, m, 'sent'), status(tenant, m, 'delivered'), status(tenant, m, 'delivered'), status(tenant, m, 'read'), status(tenant, m, 'sent')]),
      [status(tenant, rest[10], 'read')],
      [{ ...status(tenant, blocked, 'failed'), data: { ...status(tenant, blocked, 'failed').data, error: { code: '131048', title: 'Spam rate limit hit' } } }],
      // another tenant naming these messages changes nothing
      messages.map((m) => status(newId('ten'), m, 'failed')),
    ];
    // the look-up, then START, the locked read, recipients, counters, the pause, COMMIT
    expect(await countStatements(() => Promise.all(groups.map((events) => consumer.onStatus(events))))).toBe(7);
    expect(await counts(id)).toEqual({ status: 'paused', queued: 0, sent: 11, delivered: 11, read: 11, failed: 1, status_reason: expect.stringContaining('131048') });

    // the same statuses again (a redelivery) change nothing
    await Promise.all(groups.map((events) => consumer.onStatus(events)));
    expect(await counts(id)).toMatchObject({ queued: 0, sent: 11, delivered: 11, read: 11, failed: 1 });
    const rows = (await campaigns.sql.query(`SELECT status, count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1 GROUP BY status ORDER BY status`, [id])) as unknown[];
    expect(rows).toEqual([{ status: 'failed', n: 1 }, { status: 'read', n: 11 }]);
  });
});

/** Issue 19: replies are counted a consumed batch at a time; every inbound message passes here, few of them replies. */
describe('campaign-service: replies to campaign messages', () => {
  let campaigns: CampaignServiceUnderTest;
  beforeAll(async () => {
    campaigns = await startCampaignService('campaign-results-replies', { CAMPAIGN_SWEEP_MS: '60000' });
  });
  afterAll(() => campaigns?.close());

  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

  function inbound(tenantId: string, from: string, sentAt: string): MessageInboundEvent {
    return EventPublisher.envelope(Topics.MessageInbound, tenantId, {
      message_id: newId('msg'), channel: 'whatsapp', channel_id: newId('chn'), from, from_user_id: null, to: '+14155550000', type: 'text',
      text: 'yes please', provider_message_id: `wamid.${newId('msg')}`, sent_at: sentAt, received_at: new Date().toISOString(), channel_agent: null, contact_name: null,
    });
  }

  /** A running campaign whose recipients (phone → minutes since their message was queued) were all queued. */
  async function campaignTo(tenant: string, queuedMinutesAgo: Record<string, number>): Promise<string> {
    const id = newId('cpg');
    const phones = Object.keys(queuedMinutesAgo);
    await campaigns.sql.query(
      `INSERT INTO campaigns (id, tenant_id, name, template, audience, status, rate_per_second, audience_count, queued)
       VALUES ($1, $2, 'Spring', '{}', '{}', 'running', 10, $3, $3)`,
      [id, tenant, phones.length],
    );
    await campaigns.sql.query(
      `INSERT INTO campaign_recipients (campaign_id, tenant_id, contact_id, phone, message_id, status, queued_at)
       SELECT $1, $2, 'ct_' || n, phone, 'msg_' || $1 || n, 'queued', now() - make_interval(mins => ago)
         FROM unnest($3::text[], $4::int[]) WITH ORDINALITY AS u(phone, ago, n)`,
      [id, tenant, phones, phones.map((p) => queuedMinutesAgo[p])],
    );
    return id;
  }

  const replied = async (id: string) =>
    ((await campaigns.sql.query(`SELECT replied FROM campaigns WHERE id = $1`, [id])) as { replied: number }[])[0].replied;
  const repliedAt = async (id: string) =>
    Object.fromEntries(
      ((await campaigns.sql.query(`SELECT phone, replied_at FROM campaign_recipients WHERE campaign_id = $1`, [id])) as { phone: string; replied_at: Date | null }[]).map(
        (r) => [r.phone, r.replied_at?.toISOString() ?? null],
      ),
    );

  it('counts each recipient who wrote back within 72 h once, from the key groups consumed side by side in one statement', async () => {
    const consumer = campaigns.app.get(CampaignResultsConsumer);
    const [tenant, other] = [newId('ten'), newId('ten')];
    const [ana, bo, cy, dee] = ['+14155550101', '+14155550102', '+14155550103', '+14155550104'];
    // ana's message went out 10 minutes ago, bo's 4 days ago (outside the window), dee's in two campaigns
    const spring = await campaignTo(tenant, { [ana]: 10, [bo]: 4 * 24 * 60, [dee]: 30 });
    const summer = await campaignTo(tenant, { [dee]: 5 });
    const before = at(20);
    const groups = [
      // ana wrote before her campaign message (not a reply), then twice after it: the first after it is the reply
      [inbound(tenant, ana.slice(1), before), inbound(tenant, ana, at(8)), inbound(tenant, ana, at(2))],
      [inbound(tenant, bo, at(1))],
      [inbound(tenant, cy, at(1))], // in no campaign
      [inbound(tenant, dee, at(1))], // a reply to both campaigns
      [inbound(other, ana, at(9))], // the same number at another tenant is another customer (earlier than ana's reply)
    ];
    expect(await countStatements(() => Promise.all(groups.map((events) => consumer.onInbound(events))))).toBe(1);

    expect({ spring: await replied(spring), summer: await replied(summer) }).toEqual({ spring: 2, summer: 1 });
    const springReplies = await repliedAt(spring);
    expect(springReplies[bo]).toBeNull();
    expect(Date.parse(springReplies[ana]!)).toBe(Date.parse(groups[0][1].data.sent_at));
    expect(springReplies[dee]).not.toBeNull();

    // the same messages again (a redelivery), and a later one, count nothing more
    await Promise.all([...groups, [inbound(tenant, ana, at(0))]].map((events) => consumer.onInbound(events)));
    expect({ spring: await replied(spring), summer: await replied(summer) }).toEqual({ spring: 2, summer: 1 });
    expect(Date.parse((await repliedAt(spring))[ana]!)).toBe(Date.parse(groups[0][1].data.sent_at));
  });
});
