#!/usr/bin/env node
// npm run api:generate — regenerates libs/api-client/src/generated/parley-api.ts from the gateway's OpenAPI document.
// Builds the gateway and its libraries with swc, lets the compiled gateway write the document it describes
// (apps/gateway/src/openapi/write-openapi.ts; needs the development PostgreSQL server, nothing is started), then
// renders the types. The gateway's OpenAPI integration test fails while the checked-in file differs from this output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_TYPES_FILE, renderClientTypes } from './client-types.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const run = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

const dir = mkdtempSync(join(tmpdir(), 'parley-openapi-'));
try {
  run('tools/dev/swc-build.mjs', 'apps/gateway', 'libs/contracts', 'libs/kafka', 'libs/service-kit');
  const documentFile = join(dir, 'openapi.json');
  run('dist/apps/gateway/src/openapi/write-openapi.js', documentFile);
  const document = JSON.parse(readFileSync(documentFile, 'utf8'));
  writeFileSync(join(root, CLIENT_TYPES_FILE), await renderClientTypes(document));
  process.stderr.write(`[api:generate] ${Object.keys(document.paths).length} paths → ${CLIENT_TYPES_FILE}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
