import { startServiceUnderTest, type ServiceUnderTest } from '@parley/testing';
import { campaignServiceModule } from '../app.module';
import { CampaignServiceConfig } from '../config/campaign-service.config';
import { campaignServiceDatabase } from '../database/campaign-service.database';

/** campaign-service under test (libs/testing's harness: calls, problems, publishing, a second instance). */
export type CampaignServiceUnderTest = ServiceUnderTest<CampaignServiceConfig>;

/**
 * Boots the service the way integration specs need it: a quick sweep, quiet logs, no template or number checks
 * (messaging-service is not running beside it) and no cost estimate (nor billing-service, unless a spec starts it); `env` overrides any setting. crm-service under test joins its namespace to answer audiences.
 */
export function startCampaignService(label: string, env: Record<string, string> = {}): Promise<CampaignServiceUnderTest> {
  return startServiceUnderTest(label, { database: campaignServiceDatabase, Config: CampaignServiceConfig, module: campaignServiceModule }, { NODE_ENV: 'development', LOG_LEVEL: 'error', CAMPAIGN_SWEEP_MS: '100', CAMPAIGN_MESSAGING_CHECKS: 'false', CAMPAIGN_BILLING_ESTIMATE: 'false', ...env });
}
