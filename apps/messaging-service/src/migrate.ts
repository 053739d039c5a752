import { loadConfig, runMigrations } from '@parley/service-kit';
import { MessagingServiceConfig } from './config/messaging-service.config';
import { messagingServiceDatabase } from './database/messaging-service.database';

/** `node dist/apps/messaging-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(MessagingServiceConfig);
runMigrations(config.DATABASE_URL, messagingServiceDatabase).then(
  (applied) => process.stderr.write(`messaging-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`messaging-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
