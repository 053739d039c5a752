import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rejectWrongMethods } from './method-not-allowed';
import { recordRoutes } from './route-registry';

/**
 * Provider notifications (CONTRACT.md §7): taken as raw bytes in any content type, never parsed here, so a validly
 * signed body is acknowledged whatever it holds (the consumer dead-letters what it cannot understand).
 */
export const PROVIDER_INTAKE_PREFIX = '/webhooks/';

/** A route that takes a body in other content types than JSON (CONTRACT.md §1). */
export interface RouteBodyTypes {
  /** The route as Fastify knows it (`/api/v1/agents/:agent_name/documents`). */
  url: string;
  /** The one method that takes them; every method of the route when absent. */
  method?: string;
  /** The media types taken, named in this order in the 415's detail ("Send the body as a or b."). */
  types: readonly string[];
  /** Answers the 415 in the route's own error shape instead of problem+json (the token endpoint's OAuth shape). */
  refuse?: (reply: FastifyReply, detail: string) => FastifyReply;
}

/** What checks a request when it arrives (the authentication): its two hooks, in front of all the others. */
export interface ArrivalCheck {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  refuse(request: FastifyRequest): void;
}

/** What the features add to the gateway's Fastify set-up; `gateway-app.ts` gathers them, so http/ names no feature. */
export interface GatewayFastifyFeatures {
  /** Content-type parsers and route hooks of the features (multipart, CSV, the token endpoint's error shape). */
  plugins: readonly ((fastify: FastifyInstance) => void)[];
  /** The arrival check, looked up at the first request (the hooks are installed before Nest exists). */
  arrival: () => ArrivalCheck;
  /** Every route that takes bodies other than JSON; any other body is JSON only. */
  bodyTypes: readonly RouteBodyTypes[];
}

const JSON_ONLY: readonly string[] = ['application/json'];

/**
 * Gateway-specific Fastify set-up, run before Nest registers its routes:
 * - form bodies need no plugin: Nest's Fastify adapter already parses application/x-www-form-urlencoded (registering
 *   @fastify/formbody as well fails at start-up with "parser already present"); the content-type hook limits them to
 *   the routes that take them (the token route);
 * - a body in any other content type than JSON, or than its route's `bodyTypes`, is refused with 415 before it is
 *   read (CONTRACT.md §1), except at provider intake, which takes any body as it came;
 * - the routes are recorded, so the API reference can be checked against what is really served, and a known path
 *   called with a method it does not serve answers 405 rather than 404;
 * - tenant requests are authenticated and counted when they arrive, before all of that (the arrival check).
 */
export function configureGatewayFastify(fastify: FastifyInstance, features: GatewayFastifyFeatures): void {
  recordRoutes(fastify);
  for (const plugin of features.plugins) plugin(fastify);
  // First of the request hooks, so whatever answer comes next (405, 415, 400, 413, 404) is counted and labelled; its
  // 401 and 429 come before the body is read, after Nest's request logging (an onRequest hook of its own) saw the request.
  fastify.addHook('onRequest', (request, reply) => features.arrival().onRequest(request, reply));
  fastify.addHook('preParsing', async (request) => features.arrival().refuse(request));
  rejectWrongMethods(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    if (!hasBody(request) || request.routeOptions.url?.startsWith(PROVIDER_INTAKE_PREFIX)) return;
    const mime = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const route = features.bodyTypes.find((r) => r.url === request.routeOptions.url && (r.method === undefined || r.method === request.method));
    const types = route?.types ?? JSON_ONLY;
    if (types.includes(mime)) return;
    const detail = `Send the body as ${types.join(' or ')}.`;
    if (route?.refuse) return route.refuse(reply, detail);
    throw new ProblemException(problem(415, ProblemTypes.unsupportedMediaType, 'Unsupported Media Type', detail));
  });
}

/** Whether the request carries a body (a declared non-zero length, or a chunked one). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}
