import { createServiceApp, loadConfig, runService, startServiceApp } from '@parley/service-kit';
import { sandboxAppOptions, whatsappSandboxModule } from './app.module';
import { WhatsappSandboxConfig } from './config/whatsapp-sandbox.config';

runService('whatsapp-sandbox', async () => {
  const config = loadConfig(WhatsappSandboxConfig);
  const app = await createServiceApp(whatsappSandboxModule(config), sandboxAppOptions);
  await startServiceApp(app, config, 'whatsapp-sandbox');
});
