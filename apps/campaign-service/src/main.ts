import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { campaignServiceModule } from './app.module';
import { CampaignServiceConfig } from './config/campaign-service.config';

runService('campaign-service', async () => {
  const config = loadConfig(CampaignServiceConfig);
  const app = await createServiceApp(campaignServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'campaign-service');
});
