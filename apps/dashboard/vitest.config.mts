// The dashboard's component and page tests: `vitest run --config apps/dashboard/vitest.config.mts` (its Nx `test`
// target). The build's own config (the React plugin, the typed client compiled from source), in jsdom at the URL the
// gateway serves the dashboard from, with the API mocked at the network by MSW (src/test/setup.ts).
import { defineConfig, mergeConfig } from 'vitest/config';
import build from './vite.config.mts';

export default mergeConfig(
  build,
  defineConfig({
    test: {
      environment: 'jsdom',
      environmentOptions: { jsdom: { url: 'http://localhost/dashboard/' } },
      include: ['src/**/*.spec.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      // each file gets a fresh jsdom; the files run side by side on the machine's cores
      pool: 'threads',
    },
  }),
);
