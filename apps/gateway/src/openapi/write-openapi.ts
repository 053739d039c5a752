import { loadConfig } from '@parley/service-kit';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GatewayConfig } from '../config/gateway.config';
import { createGatewayApp } from '../gateway-app';
import { buildOpenApiDocument } from './openapi-document';

/**
 * `node dist/apps/gateway/src/openapi/write-openapi.js <file>`: writes the OpenAPI document the gateway's code
 * describes (used by `npm run api:generate`). The app is created, not started: nothing listens or consumes.
 */
async function main(file: string): Promise<void> {
  const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'warn' });
  const app = await createGatewayApp(loadConfig(GatewayConfig, { LOG_LEVEL: 'warn', DATABASE_URL: maintenanceDatabase(config.DATABASE_URL) }));
  try {
    writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app.close();
  }
}

/**
 * Creating the app opens a database connection (TypeORM connects when its module is created) but runs no query, so
 * the server's always-present `postgres` database serves: writing the document needs no migrated gateway database.
 */
function maintenanceDatabase(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: write-openapi.js <output.json>\n');
  process.exit(2);
}
main(resolve(file)).catch((err: unknown) => {
  process.stderr.write(`write-openapi failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
