import 'reflect-metadata';
import { Logger as NestLogger, type INestApplication, type RawBodyRequest, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication, type NestFastifyBodyParserOptions } from '@nestjs/platform-fastify';
import { EventPublisher, KafkaConnection, KafkaTransport } from '@parley/kafka';
import { Logger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { errorCodes, type FastifyBodyParser, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Histogram } from 'prom-client';
import type { BaseConfig } from './config/base.config';
import { exposeMetrics } from './health/metrics';
import { answerClientError } from './http/client-errors';
import { DEFAULT_HTTP_TIMEOUTS, applyHttpTimeouts } from './http/http-timeouts';
import { ProblemFilter, sendProblem } from './http/problem.filter';
import { ProblemValidationPipe } from './http/validation';
import { armShutdownDeadline, exitWithSupervisor } from './lifecycle/shutdown';
import { logCompletedRequest } from './logging/logging';

export const ONE_MIB = 1024 * 1024;

export interface BootstrapOptions {
  /** Keep the raw request body (`request.rawBody`) for signature checks. */
  rawBody?: boolean;
  /** Body limit per route prefix, above the 1 MiB default (e.g. provider intake at 10 MiB). */
  bodyLimits?: { prefix: string; bytes: number }[];
  /** Extra set-up on the Fastify instance before routes are registered (content parsers, hooks). */
  configureFastify?: (fastify: FastifyInstance) => void | Promise<void>;
  /** Start the Kafka consumer for the app's @EventPattern/@MessagePattern handlers. */
  consumeKafka?: boolean;
  /**
   * Routes under these prefixes take any body, in any content type, as raw bytes (`request.rawBody`; the parsed body
   * stays undefined) and never fail to parse: signed provider intake must acknowledge every validly signed body,
   * JSON or not, and leave its understanding to the consumer.
   */
  rawBodyPrefixes?: string[];
  /**
   * Which proxies in front of the service to believe about the client's address (`X-Forwarded-For`), as Fastify's
   * `trustProxy` takes it: `true` (any), a hop count, or addresses and CIDR ranges. Default: none, `request.ip` is the
   * peer's address.
   */
  trustProxy?: boolean | number | string[];
}

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

/**
 * Nest installs its own Fastify error handler at init, which turns Fastify's errors (body parsing, size, content
 * type, hooks) into bare HttpExceptions and loses their codes (malformed JSON would no longer get its own problem
 * type). The handler set in `createServiceApp` answers those errors as problem+json itself, so it is kept.
 */
class ServiceFastifyAdapter extends FastifyAdapter {
  /** BootstrapOptions.rawBodyPrefixes. */
  rawBodyPrefixes: readonly string[] = [];

  override setErrorHandler(): FastifyInstance {
    return this.getInstance<FastifyInstance>();
  }

  /** Nest's JSON and form parsers come through here: a raw-body route keeps the bytes and skips the parsing. */
  override useBodyParser(type: string | string[] | RegExp, rawBody: boolean, options?: NestFastifyBodyParserOptions, parser?: FastifyBodyParser<Buffer>): void {
    super.useBodyParser(type, rawBody, options, (request, body, done) => {
      if (this.takesRawBody(request)) return keepRawBody(request, body, done);
      if (parser) return parser(request, body, done);
      done(null, body);
    });
  }

  takesRawBody(request: FastifyRequest): boolean {
    const route = request.routeOptions.url;
    return route !== undefined && this.rawBodyPrefixes.some((prefix) => route.startsWith(prefix));
  }
}

function keepRawBody(request: FastifyRequest, body: Buffer | string, done: (err: Error | null, body?: unknown) => void): void {
  (request as RawBodyRequest<FastifyRequest>).rawBody = Buffer.isBuffer(body) ? body : Buffer.from(body);
  done(null, undefined);
}

/**
 * `trustProxy` as Fastify takes it. A hop count keeps its meaning (the nearest N hops are believed, whoever they are):
 * fastify 5.12 trusts nothing for a bare number, since it cannot check the immediate peer, which would silently count
 * every client behind the proxies as one. Believing N hops is only safe when the service is reachable through them
 * alone; addresses and CIDR ranges check the peer (.env.example says so).
 */
function trustedProxies(trust: BootstrapOptions['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust ?? false;
}

/** Creates a service's Nest app on Fastify with the platform's conventions, without listening. */
export async function createServiceApp(module: Type<unknown>, options: BootstrapOptions = {}): Promise<NestFastifyApplication> {
  const errorLogger = new NestLogger('Http');
  const adapter = new ServiceFastifyAdapter({
    bodyLimit: ONE_MIB,
    // Errors the router raises before any hook (a malformed %-escape, a path parameter over maxParamLength) are
    // problem+json too, not Fastify's bare JSON.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('x-request-id', String(request.id));
      sendProblem(reply, request, error, errorLogger);
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustedProxies(options.trustProxy),
  });
  const fastify = adapter.getInstance();
  if (options.rawBodyPrefixes?.length) {
    adapter.rawBodyPrefixes = options.rawBodyPrefixes;
    // The content types Nest does not parse: raw bytes on a raw-body route; elsewhere text as Fastify's own parser
    // gives it, and the usual 415 for anything else.
    fastify.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (request, body, done) => {
      if (adapter.takesRawBody(request)) return keepRawBody(request, body, done);
      done(null, body.toString('utf8'));
    });
    fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
      if (adapter.takesRawBody(request)) return keepRawBody(request, body, done);
      done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(String(request.headers['content-type'] ?? '')), undefined);
    });
  }
  // Slow clients are cut off even where the config is not at hand (tests); startServiceApp applies the configured ones.
  applyHttpTimeouts(fastify.server, DEFAULT_HTTP_TIMEOUTS);
  // Echo the request id (the caller's `x-request-id`, else a fresh one) on every answer.
  fastify.addHook('onSend', (request, reply, _payload, done) => {
    void reply.header('x-request-id', String(request.id));
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    httpDuration.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    logCompletedRequest(request, reply);
    done();
  });
  if (options.bodyLimits?.length) {
    fastify.addHook('onRoute', (route) => {
      const limit = options.bodyLimits!.find((l) => route.url.startsWith(l.prefix));
      if (limit) route.bodyLimit = limit.bytes;
    });
  }
  fastify.setErrorHandler((error, request, reply) => sendProblem(reply, request, error, errorLogger));
  await options.configureFastify?.(fastify as unknown as FastifyInstance);

  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, { bufferLogs: true, rawBody: options.rawBody ?? false });
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(new ProblemValidationPipe());
  app.enableShutdownHooks();
  if (options.consumeKafka) {
    app.connectMicroservice(
      { strategy: new KafkaTransport(app.get(KafkaConnection), app.get(EventPublisher)) },
      { inheritAppConfig: true },
    );
  }
  return app;
}

/** What a started service listens on. */
export interface StartedService {
  port: number;
  /** The internal port of `GET /metrics`; null when the service's own port serves it (development). */
  metricsPort: number | null;
}

/** Starts a service: HTTP first (so health answers while Kafka joins), then its Kafka consumer. */
export async function startServiceApp(app: INestApplication, config: BaseConfig, name: string): Promise<StartedService> {
  const logger = new NestLogger(name);
  armShutdownDeadline(name, config.SHUTDOWN_GRACE_MS);
  exitWithSupervisor(name);
  applyHttpTimeouts(app.getHttpServer(), config);
  const metricsPort = await exposeMetrics(app, config);
  await app.listen(config.PORT, config.HOST);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  try {
    await app.startAllMicroservices();
  } catch (err) {
    logger.error(`could not start the Kafka consumer: ${String(err)}`);
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  logger.log(`${name} listening on http://${config.HOST}:${port}${metricsPort === null ? '' : ` (GET /metrics on port ${metricsPort})`}`);
  return { port, metricsPort };
}

/** `main.ts` of a service: create, start, and exit non-zero on a start-up failure. */
export function runService(name: string, start: () => Promise<void>): void {
  start().catch((err: unknown) => {
    // Logging may not be up yet: stderr is the one sure place.
    process.stderr.write(`${name} failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
