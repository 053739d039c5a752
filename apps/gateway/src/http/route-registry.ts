import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
}

const ROUTES = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records every route registered on this instance from now on (Nest's, Swagger's, static ones). */
export function recordRoutes(fastify: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  ROUTES.set(fastify, routes);
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url });
  });
}

/** What the instance serves, so the API reference can be checked against it (route for route). */
export function registeredRoutes(fastify: FastifyInstance): readonly RegisteredRoute[] {
  return ROUTES.get(fastify) ?? [];
}
