import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { billingServiceModule } from './app.module';
import { BillingServiceConfig } from './config/billing-service.config';

runService('billing-service', async () => {
  const config = loadConfig(BillingServiceConfig);
  const app = await createServiceApp(billingServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'billing-service');
});
