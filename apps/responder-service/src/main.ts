import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { responderServiceModule } from './app.module';
import { ResponderServiceConfig } from './config/responder-service.config';

runService('responder-service', async () => {
  const config = loadConfig(ResponderServiceConfig);
  const app = await createServiceApp(responderServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'responder-service');
});
