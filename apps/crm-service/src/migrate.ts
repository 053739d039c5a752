import { loadConfig, runMigrations } from '@parley/service-kit';
import { CrmServiceConfig } from './config/crm-service.config';
import { crmServiceDatabase } from './database/crm-service.database';

/** `node dist/apps/crm-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(CrmServiceConfig);
runMigrations(config.DATABASE_URL, crmServiceDatabase).then(
  (applied) => process.stderr.write(`crm-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`crm-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
