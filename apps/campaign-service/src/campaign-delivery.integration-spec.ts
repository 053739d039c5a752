import { randomBytes } from 'node:crypto';
import { newId } from '@parley/contracts';
import { pollUntil } from '@parley/testing';
// The real crm-service and messaging-service (as platform-e2e boots services), messaging-service sending to its fake
// Cloud API: what reaches the provider is what a customer's phone would get.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startCrmService, type CrmServiceUnderTest } from '../../crm-service/src/test/crm-service-under-test';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { FakeCloudApi } from '../../messaging-service/src/test/fake-cloud-api';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startMessagingService, type MessagingServiceUnderTest } from '../../messaging-service/src/test/messaging-service-under-test';
import { startCampaignService, type CampaignServiceUnderTest } from './test/campaign-service-under-test';

let campaigns: CampaignServiceUnderTest;
let crm: CrmServiceUnderTest;
let messaging: MessagingServiceUnderTest;
let cloudApi: FakeCloudApi;

beforeAll(async () => {
  cloudApi = await FakeCloudApi.start();
  campaigns = await startCampaignService('cpgdelivery', { CAMPAIGN_MESSAGING_CHECKS: 'true' });
  const namespace = { KAFKA_TOPIC_PREFIX: campaigns.config.KAFKA_TOPIC_PREFIX };
  crm = await startCrmService('cpgdelivery-crm', namespace);
  messaging = await startMessagingService('cpgdelivery-msg', { ...namespace, GRAPH_API_BASE_URL: cloudApi.url, SANDBOX_ENABLED: 'false' });
}, 240_000);

afterAll(async () => {
  await messaging?.close();
  await crm?.close();
  await campaigns?.close();
  await cloudApi?.close();
});

describe('a campaign through messaging-service to the provider (CONTRACT.md §15)', () => {
  it('reaches each contact exactly once at a pace below the number limit, and counts what the provider took', async () => {
    const tenant = newId('ten');
    await campaigns.call('channels.connect', {
      tenant_id: tenant,
      body: { provider: 'meta', phone_number: '+1 555 060 0000', phone_number_id: `pn_${randomBytes(4).toString('hex')}`, access_token: 'EAAG-campaign' },
    });
    const [channel] = (await campaigns.call('channels.list', { tenant_id: tenant, limit: 10, cursor: null })).data;
    await campaigns.call('channels.update', { tenant_id: tenant, channel_id: channel.id, body: { send_limit_per_second: 8 } });
    const phones = Array.from({ length: 6 }, (_, i) => `+1415556${String(2000 + i)}`);
    for (const phone of phones) await campaigns.call('contacts.create', { tenant_id: tenant, body: { phone, name: 'Pat', tags: ['launch'] } });

    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Launch', template: { name: 'hello_world', language: 'en_US' }, audience: { tags: ['launch'] }, rate_per_second: 50 } });
    const started = await campaigns.call('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    // three quarters of the number's 8/s: the rest stays free for agent replies
    expect(started.rate_per_second).toBe(6);

    const done = await pollUntil(async () => {
      const got = await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id });
      return got.status === 'completed' && got.counts.sent === phones.length && got;
    }, { timeoutMs: 30_000, description: 'every recipient sent' });
    expect(done.counts).toMatchObject({ audience: 6, queued: 0, sent: 6, failed: 0 });
    for (const phone of phones) expect({ phone, sends: cloudApi.sendsTo(phone).length }).toEqual({ phone, sends: 1 });
    expect(cloudApi.sendsTo(phones[0])[0].body).toMatchObject({ type: 'template', template: { name: 'hello_world' } });
  });

  it('refuses to start a template messaging-service does not know', async () => {
    const tenant = newId('ten');
    await campaigns.call('channels.connect', {
      tenant_id: tenant,
      body: { provider: 'meta', phone_number: '+1 555 060 0001', phone_number_id: `pn_${randomBytes(4).toString('hex')}`, access_token: 'EAAG-campaign' },
    });
    await campaigns.call('contacts.create', { tenant_id: tenant, body: { phone: '+14155563000', tags: ['x'] } });
    const draft = await campaigns.call('campaigns.create', { tenant_id: tenant, body: { name: 'Unknown', template: { name: 'never_made', language: 'en' }, audience: { tags: ['x'] } } });
    const refused = await campaigns.problemOf('campaigns.transition', { tenant_id: tenant, id: draft.id, action: 'start' });
    expect(refused).toMatchObject({ status: 400, errors: [{ field: 'template.name' }] });
    expect((await campaigns.call('campaigns.get', { tenant_id: tenant, id: draft.id })).status).toBe('draft');
  });
});
