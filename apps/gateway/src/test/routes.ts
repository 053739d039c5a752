import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PUBLIC_ROUTE } from '../http/request-context';

export interface ControllerRoute {
  method: string;
  /** With Nest's `:param` placeholders. */
  path: string;
  /** Marked `@Public()` (no credential needed under the tenant prefixes). */
  isPublic: boolean;
}

/** Every route the app's controllers declare, read from their metadata, so a route added later is covered by the tests too. */
export function controllerRoutes(app: NestFastifyApplication): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  const trim = (p: unknown) => String(p ?? '').replace(/^\/+|\/+$/g, '');
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const base = trim(Reflect.getMetadata(PATH_METADATA, controller));
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || path === undefined) continue;
        routes.push({
          method: RequestMethod[method],
          path: `/${[base, trim(path)].filter(Boolean).join('/')}`,
          isPublic: Boolean(Reflect.getMetadata(PUBLIC_ROUTE, handler) || Reflect.getMetadata(PUBLIC_ROUTE, controller)),
        });
      }
    }
  }
  return routes;
}

/** Routes that need a tenant credential (CONTRACT.md §2). */
export function tenantRoutes(app: NestFastifyApplication): ControllerRoute[] {
  return controllerRoutes(app).filter((r) => /^\/(api\/)?v1\//.test(r.path) && !r.isPublic);
}
