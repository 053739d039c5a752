import { loadConfig, runMigrations } from '@parley/service-kit';
import { CampaignServiceConfig } from './config/campaign-service.config';
import { campaignServiceDatabase } from './database/campaign-service.database';

/** `node dist/apps/campaign-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(CampaignServiceConfig);
runMigrations(config.DATABASE_URL, campaignServiceDatabase).then(
  (applied) => process.stderr.write(`campaign-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`campaign-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
