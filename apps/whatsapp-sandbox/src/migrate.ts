import { loadConfig, runMigrations } from '@parley/service-kit';
import { WhatsappSandboxConfig } from './config/whatsapp-sandbox.config';
import { whatsappSandboxDatabase } from './database/whatsapp-sandbox.database';

/** `node dist/apps/whatsapp-sandbox/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(WhatsappSandboxConfig);
runMigrations(config.DATABASE_URL, whatsappSandboxDatabase).then(
  (applied) => process.stderr.write(`whatsapp-sandbox: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`whatsapp-sandbox: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
