import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { webhookServiceModule } from './app.module';
import { WebhookServiceConfig } from './config/webhook-service.config';

runService('webhook-service', async () => {
  const config = loadConfig(WebhookServiceConfig);
  const app = await createServiceApp(webhookServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'webhook-service');
});
