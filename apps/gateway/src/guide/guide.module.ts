import { Module } from '@nestjs/common';
import { basename, join, resolve } from 'node:path';
import { readBuildDirectory } from '../http/built-site';
import { GuideController } from './guide.controller';
import { GuidePages } from './guide-pages';

/**
 * Where `npm run docs` puts the site: `dist/docs`. Compiled, this file is in `dist/apps/gateway/src/guide`; run
 * from source (tests), in `apps/gateway/src/guide`.
 */
export function guideBuildDirectory(): string {
  const top = resolve(__dirname, '../../../..');
  return basename(top) === 'dist' ? join(top, 'docs') : join(top, 'dist', 'docs');
}

/** The docs site at `/guide`, in development only (gatewayModule leaves it out in production). */
@Module({
  controllers: [GuideController],
  providers: [{ provide: GuidePages, useFactory: () => new GuidePages(readBuildDirectory(guideBuildDirectory())) }],
})
export class GuideModule {}
