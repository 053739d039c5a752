import { EventPublisher } from '@parley/kafka';
import { Topics, newId, type MessageStatusEvent, type OutboundStatus } from '@parley/contracts';
import { register } from 'prom-client';
import { startCampaignService, type CampaignServiceUnderTest } from '../test/campaign-service-under-test';
import { CampaignResultsConsumer } from './campaign-results.consumer';

const statements = async () => (await register.getSingleMetric('db_statements_total')!.get()).values[0]?.value ?? 0;

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
    const before = await statements();
    await Promise.all(groups.map((events) => consumer.onStatus(events)));
    expect((await statements()) - before).toBe(1);
  });
});
