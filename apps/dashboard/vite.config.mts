// The dashboard's build: `vite build --config apps/dashboard/vite.config.mts` (tools/dev/swc-build.mjs runs it).
// The gateway serves the output (dist/apps/dashboard) at /dashboard, so every asset URL starts with /dashboard/.
import react from '@vitejs/plugin-react';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/dashboard/',
  plugins: [react()],
  // the typed API client is a workspace library, compiled from source into the bundle
  resolve: { alias: { '@parley/api-client': resolve(here, '../../libs/api-client/src/index.ts') } },
  logLevel: 'warn',
  build: {
    outDir: resolve(here, '../../dist/apps/dashboard'),
    emptyOutDir: true,
    sourcemap: true,
  },
});
