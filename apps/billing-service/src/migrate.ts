import { loadConfig, runMigrations } from '@parley/service-kit';
import { BillingServiceConfig } from './config/billing-service.config';
import { billingServiceDatabase } from './database/billing-service.database';

/** `node dist/apps/billing-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(BillingServiceConfig);
runMigrations(config.DATABASE_URL, billingServiceDatabase).then(
  (applied) => process.stderr.write(`billing-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`billing-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
