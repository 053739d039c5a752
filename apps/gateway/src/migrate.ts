import { loadConfig, runMigrations } from '@parley/service-kit';
import { GatewayConfig } from './config/gateway.config';
import { gatewayDatabase } from './database/gateway.database';

/** `node dist/apps/gateway/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(GatewayConfig);
runMigrations(config.DATABASE_URL, gatewayDatabase).then(
  (applied) => process.stderr.write(`gateway: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`gateway: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
