import { loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { GatewayConfig } from './config/gateway.config';
import { createGatewayApp } from './gateway-app';

runService('gateway', async () => {
  const config = loadConfig(GatewayConfig);
  const app = await createGatewayApp(config);
  await startServiceApp(app, config, 'gateway');
});
