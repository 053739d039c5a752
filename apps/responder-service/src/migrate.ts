import { loadConfig, runMigrations } from '@parley/service-kit';
import { ResponderServiceConfig } from './config/responder-service.config';
import { responderServiceDatabase } from './database/responder-service.database';

/** `node dist/apps/responder-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(ResponderServiceConfig);
runMigrations(config.DATABASE_URL, responderServiceDatabase).then(
  (applied) => process.stderr.write(`responder-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`responder-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
