import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { crmServiceModule } from './app.module';
import { CrmServiceConfig } from './config/crm-service.config';

runService('crm-service', async () => {
  const config = loadConfig(CrmServiceConfig);
  const app = await createServiceApp(crmServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'crm-service');
});
