import { loadConfig, runMigrations } from '@parley/service-kit';
import { AgentServiceConfig } from './config/agent-service.config';
import { agentServiceDatabase } from './database/agent-service.database';

/** `node dist/apps/agent-service/src/migrate.js`: creates the schema and applies pending migrations. */
const config = loadConfig(AgentServiceConfig);
runMigrations(config.DATABASE_URL, agentServiceDatabase).then(
  (applied) => process.stderr.write(`agent-service: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`),
  (err: unknown) => {
    process.stderr.write(`agent-service: migration failed: ${String(err)}\n`);
    process.exit(1);
  },
);
