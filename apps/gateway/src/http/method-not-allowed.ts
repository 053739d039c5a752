import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registeredRoutes } from './route-registry';

interface RoutePattern {
  method: string;
  matches: RegExp;
}

/** `/api/v1/agents/:agent_name` → a regular expression matching its concrete paths; `*` matches the rest. */
function compile(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * A known path with a method it does not serve answers `405` problem+json with `Allow` (CONTRACT.md §1), not the
 * router's `404`. Runs only for requests the router did not match (`is404`), against the routes recorded at start.
 */
export function rejectWrongMethods(fastify: FastifyInstance): void {
  let patterns: RoutePattern[] | undefined;
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.is404) return;
    patterns ??= registeredRoutes(fastify).map((route) => ({ method: route.method.toUpperCase(), matches: compile(route.url) }));
    const path = request.url.split('?')[0];
    const allowed = [...new Set(patterns.filter((p) => p.matches.test(path)).map((p) => p.method))].sort();
    if (allowed.length === 0) return;
    throw new ProblemException(
      problem(405, ProblemTypes.methodNotAllowed, 'Method Not Allowed', `${request.method} is not allowed here; allowed: ${allowed.join(', ')}.`),
      { allow: allowed.join(', ') },
    );
  });
}
