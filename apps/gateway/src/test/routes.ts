import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { scanRoutes } from '../openapi/route-scan';

export interface ControllerRoute {
  method: string;
  /** With Nest's `:param` placeholders. */
  path: string;
  /** Marked `@Public()` (no credential needed under the tenant prefixes). */
  isPublic: boolean;
}

/**
 * Every route the app's controllers declare, read from their metadata (the OpenAPI document's scan, back in Nest's
 * `:param` form), so a route added later is covered by the tests too.
 */
export function controllerRoutes(app: NestFastifyApplication): ControllerRoute[] {
  return scanRoutes(app).map((route) => ({
    method: route.method.toUpperCase(),
    path: route.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1'),
    isPublic: route.isPublic,
  }));
}

/** Routes that need a tenant credential (CONTRACT.md §2). */
export function tenantRoutes(app: NestFastifyApplication): ControllerRoute[] {
  return controllerRoutes(app).filter((r) => /^\/(api\/)?v1\//.test(r.path) && !r.isPublic);
}
