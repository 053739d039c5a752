import { loadConfig, runMigrations } from '@parley/service-kit';
import { WebhookServiceConfig } from './config/webhook-service.config';
import { webhookServiceDatabase } from './database/webhook-service.database';

/** `node dist/apps/webhook-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(WebhookServiceConfig);
runMigrations(config.DATABASE_URL, webhookServiceDatabase).then(
  (applied) => process.stderr.write(`webhook-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`webhook-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
