import { Module } from '@nestjs/common';
import { loadConfig } from '@parley/service-kit';
import { basename, join, resolve } from 'node:path';
import { readBuildDirectory } from '../http/built-site';
import { DashboardAssets } from './dashboard-assets';
import { DashboardConfig } from './dashboard.config';
import { DashboardController } from './dashboard.controller';
import { FaviconController } from './favicon.controller';
import { PlaygroundController } from './playground.controller';
import { PlaygroundService } from './playground.service';

/**
 * Where `vite build` puts the dashboard: `dist/apps/dashboard`. Compiled, this file is in
 * `dist/apps/gateway/src/dashboard`; run from source (tests), in `apps/gateway/src/dashboard`.
 */
export function dashboardBuildDirectory(): string {
  const top = resolve(__dirname, '../../../..');
  return basename(top) === 'dist' ? join(top, 'apps', 'dashboard') : join(top, 'dist', 'apps', 'dashboard');
}

/** The dashboard's built assets at `/dashboard` (CONTRACT.md §8), its icon, and its playground relay to the WhatsApp sandbox. */
@Module({
  controllers: [DashboardController, FaviconController, PlaygroundController],
  providers: [
    { provide: DashboardAssets, useFactory: () => new DashboardAssets(readBuildDirectory(dashboardBuildDirectory())) },
    { provide: DashboardConfig, useFactory: () => loadConfig(DashboardConfig) },
    PlaygroundService,
  ],
})
export class DashboardModule {}
