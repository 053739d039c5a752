import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { PUBLIC_ROUTE } from '../http/request-context';
import type { DtoClass } from './dto-schema';

export const API_ROUTE_DOCUMENTED = 'parley:api-route-documented';

export interface ScannedRoute {
  /** Lower-case HTTP method, as the document's path items have it. */
  method: string;
  /** OpenAPI form: `/api/v1/agents/{agent_name}`. */
  path: string;
  isPublic: boolean;
  /** Described with `@ApiRoute` (otherwise the document builder fills in what the code says). */
  documented: boolean;
  body?: DtoClass;
  query?: DtoClass;
}

/** Every controller route of the app with what its metadata says about its inputs. */
export function scanRoutes(app: INestApplication): ScannedRoute[] {
  const routes: ScannedRoute[] = [];
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
        const fullPath = `/${[base, trim(path)].filter(Boolean).join('/')}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        routes.push({
          method: RequestMethod[method].toLowerCase(),
          path: fullPath,
          isPublic: Boolean(Reflect.getMetadata(PUBLIC_ROUTE, handler) || Reflect.getMetadata(PUBLIC_ROUTE, controller)),
          documented: Boolean(Reflect.getMetadata(API_ROUTE_DOCUMENTED, handler)),
          body: wholeParamType(controller, name, RouteParamtypes.BODY),
          query: wholeParamType(controller, name, RouteParamtypes.QUERY),
        });
      }
    }
  }
  return routes;
}

/** The DTO class of a handler's whole-body `@Body()` (or whole `@Query()`) parameter, if it has one. */
function wholeParamType(controller: Type, handler: string, kind: RouteParamtypes): DtoClass | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, handler) ?? []) as unknown[];
  for (const [key, arg] of Object.entries(args)) {
    if (!key.startsWith(`${kind}:`) || arg.data !== undefined) continue;
    const type = types[arg.index];
    if (typeof type === 'function' && type !== Object) return type as DtoClass;
  }
  return undefined;
}
