import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { messagingServiceModule } from './app.module';
import { MessagingServiceConfig } from './config/messaging-service.config';

runService('messaging-service', async () => {
  const config = loadConfig(MessagingServiceConfig);
  const app = await createServiceApp(messagingServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'messaging-service');
});
