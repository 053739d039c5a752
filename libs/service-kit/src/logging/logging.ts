import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Params } from 'nestjs-pino';
import { PinoLogger } from 'nestjs-pino';
import { loggableUrl } from './secret-shapes';

/** Fields never written to logs: credentials, signatures, and customers' phone numbers. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-hub-signature-256"]',
  'req.headers["x-channel-token"]',
  'req.headers["d360-api-key"]',
  '*.client_secret',
  '*.api_key',
  '*.access_token',
  '*.secret',
  '*.password',
  '*.phone_number',
  '*.to',
  '*.from',
];

/**
 * nestjs-pino settings: JSON logs at `level`, secrets and numbers redacted. No per-request middleware (`forRoutes: []`):
 * pino-http made a child logger per request, serialised its bindings and ran the rest of the request inside an
 * AsyncLocalStorage scope, a measurable share of every hot route's CPU (issue 19). Requests are logged by
 * `logCompletedRequest` instead, from the Fastify hook that already runs for each answer. Nor is a Kafka message's
 * handling run in such a scope: with no AsyncLocalStorage in use, Node runs no hook on every promise of the process
 * (2.5–5% of messaging-service's CPU under load). A line that needs its request or message says so itself.
 */
export function loggerParams(service: string, level: string): Params {
  return {
    pinoHttp: {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // pino-http wraps these: `req` receives its request mapping, `res` its response mapping (statusCode once sent).
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggableUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      transport: undefined,
    },
    forRoutes: [],
  };
}

/** Routes polled by orchestrators and scrapers: never logged, whatever they answer. */
const QUIET_ROUTES = new Set(['GET /health', 'GET /health/ready', 'GET /metrics']);

/**
 * One line per answered request: a failure at `info` (4xx) or `error` (5xx), a success only at `debug` (a line per
 * successful request costs hot paths more than it tells). Same shape as pino-http's: `req` (id, method, URL without
 * secrets), `res.statusCode`, `responseTime` (ms), "request completed". Nothing is built when the level is off.
 */
export function logCompletedRequest(request: FastifyRequest, reply: FastifyReply): void {
  const status = reply.statusCode;
  const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
  const root = PinoLogger.root;
  if (!root?.isLevelEnabled(level)) return;
  const url = request.routeOptions.url;
  if (url !== undefined && QUIET_ROUTES.has(`${request.method} ${url}`)) return;
  root[level](
    { req: { id: String(request.id), method: request.method, url: request.url }, res: reply.raw, responseTime: Math.round(reply.elapsedTime) },
    'request completed',
  );
}
