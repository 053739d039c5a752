import { register } from 'prom-client';
import { startCampaignService, type CampaignServiceUnderTest } from '../test/campaign-service-under-test';

const statements = async () => (await register.getSingleMetric('db_statements_total')!.get()).values[0]?.value ?? 0;

/** Issue 19: with no campaign running, the sender sleeps its sweep (100 ms here) between passes instead of 5 ms. */
describe('campaign-service: the idle sender', () => {
  let campaigns: CampaignServiceUnderTest;
  beforeAll(async () => {
    campaigns = await startCampaignService('idle-sender');
  });
  afterAll(() => campaigns?.close());

  it('makes a few passes a second, not two hundred', async () => {
    const before = await statements();
    const started = Date.now();
    // A measurement window, not a wait for something: the statements of 1 s of idling.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const perSecond = ((await statements()) - before) / ((Date.now() - started) / 1000);
    // A pass is about eight statements: ten passes a second are 80; the spinning loop made over a thousand.
    expect(perSecond).toBeLessThan(200);
  });
});
