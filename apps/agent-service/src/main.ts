import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { agentServiceModule } from './app.module';
import { AgentServiceConfig } from './config/agent-service.config';

runService('agent-service', async () => {
  const config = loadConfig(AgentServiceConfig);
  const app = await createServiceApp(agentServiceModule(config), { consumeKafka: true });
  await startServiceApp(app, config, 'agent-service');
});
