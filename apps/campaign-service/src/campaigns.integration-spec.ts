import { EventPublisher, type TopicProbe } from '@parley/kafka';
import { Topics, conversationKey, newId, type CampaignCompletedEvent, type CampaignRecord, type MessageOutboundEvent, type MessageStatusData } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
// the real crm-service answers the audience (as platform-e2e boots services): a stand-in would only echo this spec's guesses
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startCrmService, type CrmServiceUnderTest } from '../../crm-service/src/test/crm-service-under-test';
import { recipientMessageId } from './campaigns/campaign-start.service';
import { CampaignSendingStore } from './sending/campaign-sending.store';
import { startCampaignService, type CampaignServiceUnderTest } from './test/campaign-service-under-test';

/**
 * One stack for the file: campaign-service, a second instance of it, and the real crm-service in its Kafka namespace
 * (so contacts are created and opted out through campaign-service's harness, which shares that namespace).
 */
let campaigns: CampaignServiceUnderTest;
let crm: CrmServiceUnderTest;
let outbound: TopicProbe<MessageOutboundEvent>;

beforeAll(async () => {
  campaigns = await startCampaignService('campaigns');
  crm = await startCrmService('campaigns-crm', { KAFKA_TOPIC_PREFIX: campaigns.config.KAFKA_TOPIC_PREFIX });
  await campaigns.startSecondInstance();
  outbound = await campaigns.kafka.probe<MessageOutboundEvent>(Topics.MessageOutbound);
}, 180_000);

afterAll(async () => {
  await outbound?.stop();
  await crm?.close();
  await campaigns?.close();
});

let phoneSeq = 0;
const phone = () => `+1415555${String(1000 + phoneSeq++).padStart(4, '0')}`;

async function contact(tenant: string, body: { name?: string; tags: string[]; attributes?: Record<string, string> }) {
  return campaigns.call('contacts.create', { tenant_id: tenant, body: { phone: phone(), ...body } });
}

const template = {
  name: 'spring_offer',
  language: 'en',
  components: [{ type: 'body', parameters: [{ type: 'text', text: '{{contact.name}}' }, { type: 'text', text: '{{contact.attributes.city}}' }] }],
};

const sentTo = (campaignMessageIds: Set<string>) => outbound.messages.filter((m) => campaignMessageIds.has(m.value.data.message_id));

async function statusOf(tenant: string, id: string, status: CampaignRecord['status']) {
  return pollUntil(async () => {
    const campaign = await campaigns.call('campaigns.get', { tenant_id: tenant, id });
    return campaign.status === status && campaign;
  }, { timeoutMs: 30_000, description: `campaign ${id} ${status}` });
}

function statusEvent(tenant: string, to: string, messageId: string, status: MessageStatusData['status'], error?: MessageStatusData['error']) {
  const data: MessageStatusData = { event: 'message.status', channel: 'whatsapp', tenant_id: tenant, message_id: messageId, status, to, at: new Date().toISOString(), ...(error ? { error } : {}) };
  return { envelope: EventPublisher.envelope(Topics.MessageStatus, tenant, data), key: conversationKey(tenant, to) };
}

describe('campaigns (CONTRACT.md §15)', () => {
  it('sends the template once to each audience contact, fills variables, skips the opted out, counts statuses and replies exactly', async () => {
    const tenant = newId('ten');
    const ada = await contact(tenant, { name: 'Ada', tags: ['vip'], attributes: { city: 'Lisbon' } });
    const bo = await contact(tenant, { name: 'Bo', tags: ['vip', 'new'], attributes: { city: 'Porto' } });
    const cy = await contact(tenant, { name: 'Cy', tags: ['vip'], attributes: { city: 'Faro' } });
    await contact(tenant, { name: 'Dee', tags: ['other'], attributes: { city: 'Braga' } });
    const optedOut = await contact(tenant, { name: 'Eve', tags: ['vip'], attributes: { city: 'Evora' } });
    await campaigns.publish({
      envelope: EventPublisher.envelope(Topics.ContactOptedOut, tenant, { event: 'contact.opted_out', tenant_id: tenant, channel: 'whatsapp', customer: optedOut.phone!, message_id: newId('msg'), keyword: 'STOP', at: new Date().toISOString() }),
      key: conversationKey(tenant, optedOut.phone!),
    });
    await pollUntil(async () => (await campaigns.call('contacts.get', { tenant_id: tenant, id: optedOut.id })).opted_out, { description: 'contact opted out' });
    const completed = await campaigns.kafka.probe<CampaignCompletedEvent>(Topics.CampaignCompleted);

    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Spring', template, audience: { tags: ['vip'] } } });
    expect(draft).toMatchObject({ status: 'draft', id: expect.stringMatching(/^cpg_/) });
    await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    const done = await statusOf(tenant, draft.id, 'completed');
    expect(done.counts).toEqual({ audience: 4, queued: 3, sent: 0, delivered: 0, read: 0, replied: 0, failed: 0, skipped_opted_out: 1 });

    const expected = new Map([ada, bo, cy].map((c) => [recipientMessageId(tenant, draft.id, c.id), c]));
    const sends = await pollUntil(() => sentTo(new Set(expected.keys())).length >= 3 && sentTo(new Set(expected.keys())), { description: 'three sends' });
    expect(sends).toHaveLength(3);
    for (const { value } of sends) {
      const c = expected.get(value.data.message_id)!;
      expect(value.data).toMatchObject({ to: c.phone, content: { type: 'template', template: { name: 'spring_offer', language: { code: 'en' } } } });
      expect(value.data.content).toMatchObject({ template: { components: [{ parameters: [{ text: c.name }, { text: c.attributes.city }] }] } });
    }
    expect(outbound.messages.some((m) => m.value.data.to === optedOut.phone)).toBe(false);
    await pollUntil(() => completed.find((m) => m.value.data.campaign.id === draft.id), { description: 'campaign.completed' });
    await completed.stop();

    // each status twice, one out of order; a reply twice: counted once each
    const [a, b, c] = [ada, bo, cy].map((x) => ({ to: x.phone!, id: recipientMessageId(tenant, draft.id, x.id) }));
    const statuses = [
      statusEvent(tenant, a.to, a.id, 'sent'),
      statusEvent(tenant, a.to, a.id, 'delivered'),
      statusEvent(tenant, b.to, b.id, 'read'),
      statusEvent(tenant, b.to, b.id, 'delivered'),
      statusEvent(tenant, c.to, c.id, 'failed', { code: '131026', title: 'Message undeliverable' }),
    ];
    await campaigns.publish(...statuses, ...statuses);
    // the provider stamps the customer's message in whole seconds: a reply in the second Bo's message was queued in counts
    const [{ queued_at: queuedAt }] = (await campaigns.sql.query(`SELECT queued_at FROM campaign_recipients WHERE message_id = $1`, [b.id])) as { queued_at: Date }[];
    const sentAt = new Date(Math.floor(new Date(queuedAt).getTime() / 1000) * 1000).toISOString();
    const inbound = () => ({
      envelope: EventPublisher.envelope(Topics.MessageInbound, tenant, {
        message_id: newId('msg'), channel: 'whatsapp' as const, channel_id: newId('chn'), from: b.to, from_user_id: null, to: '+14155550000', type: 'text' as const,
        text: 'yes please', provider_message_id: 'wamid.x', sent_at: sentAt, received_at: new Date().toISOString(), channel_agent: null, contact_name: null,
      }),
      key: conversationKey(tenant, b.to),
    });
    await campaigns.publish(inbound(), inbound());
    const counted = await pollUntil(async () => {
      const got = await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id });
      return got.counts.replied === 1 && got.counts.failed === 1 && got.counts.read === 1 && got.counts.delivered === 2 && got;
    }, { description: 'counts after statuses' });
    expect(counted.counts).toEqual({ audience: 4, queued: 0, sent: 2, delivered: 2, read: 1, replied: 1, failed: 1, skipped_opted_out: 1 });
    const failed = await campaigns.call('campaigns.recipients', { tenant_id: tenant, id: draft.id, limit: 10, cursor: null, status: 'failed' });
    expect(failed.data).toEqual([expect.objectContaining({ contact_id: cy.id, message_id: c.id, error: { code: '131026', title: 'Message undeliverable' } })]);
    // the chart's sends per minute: all three handed over, then counted per minute of queued_at
    const perMinute = await campaigns.call('campaigns.sends-per-minute', { tenant_id: tenant, id: draft.id });
    expect(perMinute.data.reduce((sum, m) => sum + m.count, 0)).toBe(3);
    await campaigns.sql.query(`UPDATE campaign_recipients SET queued_at = $2 WHERE message_id = ANY($1)`, [[a.id, b.id], '2026-03-01T10:04:59.900Z']);
    await campaigns.sql.query(`UPDATE campaign_recipients SET queued_at = $2 WHERE message_id = $1`, [c.id, '2026-03-01T10:05:00.100Z']);
    expect(await campaigns.call('campaigns.sends-per-minute', { tenant_id: tenant, id: draft.id })).toEqual({
      data: [{ minute: '2026-03-01T10:04:00.000Z', count: 2 }, { minute: '2026-03-01T10:05:00.000Z', count: 1 }],
    });
    // another tenant sees nothing of it
    expect((await campaigns.problemOf('campaigns.get', { tenant_id: newId('ten'), id: draft.id })).status).toBe(404);
    expect((await campaigns.problemOf('campaigns.sends-per-minute', { tenant_id: newId('ten'), id: draft.id })).status).toBe(404);
  });

  it('refuses to start when a recipient would get an empty parameter, naming the recipient', async () => {
    const tenant = newId('ten');
    const fay = await contact(tenant, { name: 'Fay', tags: ['promo'], attributes: { city: 'Lagos' } });
    const noCity = await contact(tenant, { name: 'Gus', tags: ['promo'] });
    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Promo', template, audience: { tags: ['promo'] } } });
    const refused = await campaigns.problemOf('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(refused).toMatchObject({ status: 409, errors: [{ field: `recipients.${noCity.id}`, message: expect.stringContaining('components[0].parameters[1].text') }] });
    expect((await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id })).status).toBe('draft');
    expect(await campaigns.problemOf('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'resume' })).toMatchObject({ status: 409, detail: 'A draft campaign cannot be resumed.' });
    // narrowed by an attribute (every contact read, no tag to filter by): only Fay, who has a city
    const narrowed = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Lagos', template, audience: { attributes: { city: 'Lagos' } } } });
    const started = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: narrowed.id, action: 'start' });
    expect(started).toMatchObject({ status: 'running', counts: { audience: 1 } });
    const [only] = (await campaigns.call('campaigns.recipients', { tenant_id: tenant, id: narrowed.id, limit: 10, cursor: null })).data;
    expect(only).toMatchObject({ contact_id: fay.id, message_id: recipientMessageId(tenant, narrowed.id, fay.id) });
  });

  it('freezes an audience of several pages a page at a time; a refusal on a later page leaves nothing written, scheduled or not', async () => {
    const tenant = newId('ten');
    const csv = ['phone,name,tags,city', ...Array.from({ length: 1000 }, (_, i) => `+1416555${String(i).padStart(4, '0')},Bulk ${i},bulk,Lima`)].join('\n');
    const { job_id } = await campaigns.call('contacts.import', { tenant_id: tenant, csv });
    await pollUntil(async () => (await campaigns.call('contacts.import-status', { tenant_id: tenant, job_id })).status === 'completed', { description: 'the import', timeoutMs: 30_000 });
    // created after the thousand: the last of the audience, on its second page of crm-service's export (1000 a page)
    const last = await contact(tenant, { name: 'Last', tags: ['bulk'] });
    const recipientsOf = async (id: string) =>
      ((await campaigns.sql.query(`SELECT count(*)::int AS n FROM campaign_recipients WHERE campaign_id = $1`, [id])) as { n: number }[])[0].n;

    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Bulk', template, audience: { tags: ['bulk'] } } });
    const refused = await campaigns.problemOf('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(refused).toMatchObject({ status: 409, detail: expect.stringMatching(/^1 recipient/), errors: [{ field: `recipients.${last.id}` }] });
    expect(await recipientsOf(draft.id)).toBe(0);

    // the sender's scheduled start commits the refusal's reason in the same transaction: the first page must not stay
    const scheduled = await campaigns.call('campaigns.create', {
      tenant_id: tenant,
      body: { name: 'Bulk later', template, audience: { tags: ['bulk'] }, schedule_at: new Date(Date.now() + 1000).toISOString() },
    });
    const back = await statusOf(tenant, scheduled.id, 'draft');
    expect(back.status_reason).toMatch(/^scheduled start refused: 1 recipient/);
    expect(await recipientsOf(scheduled.id)).toBe(0);

    await campaigns.call('contacts.update', { tenant_id: tenant, id: last.id, body: { attributes: { city: 'Cusco' } } });
    const started = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(started).toMatchObject({ status: 'running', counts: { audience: 1001, skipped_opted_out: 0 } });
    await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'cancel' });
    const frozen = (await campaigns.sql.query(
      `SELECT count(*)::int AS n, count(DISTINCT phone)::int AS phones, count(*) FILTER (WHERE template IS NOT NULL)::int AS filled,
              (SELECT template FROM campaign_recipients WHERE campaign_id = $1 AND contact_id = $2) AS last
       FROM campaign_recipients WHERE campaign_id = $1`,
      [draft.id, last.id],
    )) as { n: number; phones: number; filled: number; last: unknown }[];
    expect(frozen[0]).toMatchObject({ n: 1001, phones: 1001, filled: 1001, last: { components: [{ parameters: [{ text: 'Last' }, { text: 'Cusco' }] }] } });
  });

  it('starts a scheduled campaign when its time comes (a durable schedule), and a cancelled one never', async () => {
    const tenant = newId('ten');
    const hal = await contact(tenant, { name: 'Hal', tags: ['later'], attributes: { city: 'Oslo' } });
    const at = new Date(Date.now() + 1500).toISOString();
    const scheduled = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Later', template, audience: { tags: ['later'] }, schedule_at: at } });
    const cancelled = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Never', template, audience: { contact_ids: [hal.id] }, schedule_at: at } });
    expect(scheduled.status).toBe('scheduled');
    // the sender loop sleeps until the start, not until its safety sweep (5 s by default; 100 ms in these specs)
    const dueInMs = await campaigns.app.get(CampaignSendingStore).nextDueInMs();
    expect(dueInMs).not.toBeNull();
    expect(dueInMs!).toBeLessThanOrEqual(1500);
    expect((await campaigns.call('campaigns.transition', { tenant_id: tenant, id: cancelled.id, action: 'cancel' })).status).toBe('cancelled');
    const done = await statusOf(tenant, scheduled.id, 'completed');
    expect(Date.parse(done.started_at!)).toBeGreaterThanOrEqual(Date.parse(at));
    const messageId = recipientMessageId(tenant, scheduled.id, hal.id);
    await pollUntil(() => outbound.find((m) => m.value.data.message_id === messageId), { description: 'the scheduled send' });
    expect(outbound.find((m) => m.value.data.message_id === recipientMessageId(tenant, cancelled.id, hal.id))).toBeUndefined();
    expect((await campaigns.call('campaigns.get', { tenant_id: tenant, id: cancelled.id })).status).toBe('cancelled');
  });

  it('pauses and resumes across two instances, sending each recipient exactly once; a spam block pauses it with the reason', async () => {
    const tenant = newId('ten');
    const people = [];
    for (let i = 0; i < 12; i++) people.push(await contact(tenant, { name: `P${i}`, tags: ['bulk'], attributes: { city: 'Rome' } }));
    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Bulk', template, audience: { tags: ['bulk'] }, rate_per_second: 5 } });
    const ids = new Set(people.map((p) => recipientMessageId(tenant, draft.id, p.id)));
    await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    await pollUntil(() => sentTo(ids).length >= 2, { description: 'first sends' });
    const paused = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'pause' });
    expect(paused.status).toBe('paused');
    // what was handed over while pausing is all that reaches the topic: the counters and the topic agree
    const atPause = await pollUntil(async () => {
      const got = await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id });
      return sentTo(ids).length === got.counts.queued && got;
    }, { description: 'topic matches queued' });
    expect(atPause.counts.queued).toBeLessThan(12);
    await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'resume' });
    await statusOf(tenant, draft.id, 'completed');
    await pollUntil(() => sentTo(ids).length >= 12, { description: 'twelve sends' });
    const sent = sentTo(ids).map((m) => m.value.data.message_id);
    expect(sent).toHaveLength(12);
    expect(new Set(sent).size).toBe(12);

    // a batch produced but not committed (a crash between the two) is produced again: with the same message and event
    // ids, which messaging-service records once (insert-if-new on the message id), so the customer still gets one
    const lost = recipientMessageId(tenant, draft.id, people[3].id);
    const original = sentTo(new Set([lost]))[0].value;
    await campaigns.sql.query(`UPDATE campaign_recipients SET status = 'pending' WHERE message_id = $1`, [lost]);
    await campaigns.sql.query(`UPDATE campaigns SET status = 'running', queued = queued - 1 WHERE id = $1`, [draft.id]);
    const again = await pollUntil(() => sentTo(new Set([lost])).length === 2 && sentTo(new Set([lost]))[1].value, { description: 'the batch produced again' });
    expect({ id: again.id, message_id: again.data.message_id, content: again.data.content }).toEqual({ id: original.id, message_id: original.data.message_id, content: original.data.content });
    await statusOf(tenant, draft.id, 'completed');

    // a quality block on a running campaign pauses it with the reason
    const blocked = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Blocked', template, audience: { tags: ['bulk'] }, rate_per_second: 1 } });
    await campaigns.call('campaigns.transition', { tenant_id: tenant, id: blocked.id, action: 'start' });
    const first = recipientMessageId(tenant, blocked.id, [...people].sort((x, y) => x.id.localeCompare(y.id))[0].id);
    await pollUntil(() => outbound.find((m) => m.value.data.message_id === first), { description: 'first blocked send' });
    await campaigns.publish(statusEvent(tenant, people[0].phone!, first, 'failed', { code: '131048', title: 'Spam rate limit hit' }));
    const stopped = await statusOf(tenant, blocked.id, 'paused');
    expect(stopped.status_reason).toContain('131048');
  });
});
