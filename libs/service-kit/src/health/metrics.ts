import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, register } from 'prom-client';
import type { BaseConfig } from '../config/base.config';

// The event-loop delay histogram samples on a timer: prom-client's 10 ms default wakes every idle process 100 times a
// second (~0.6% of a core each); 100 ms still shows any stall that matters.
collectDefaultMetrics({ eventLoopMonitoringPrecision: 100 });

export const METRICS_PATH = '/metrics';

/**
 * Serves `GET /metrics` (Prometheus, CONTRACT.md §8) where the config says (`BaseConfig.metricsPort`): on the
 * service's own Fastify instance, or on an internal HTTP server of its own that serves nothing else, so the public
 * port answers 404 for it. Call before the app listens; the internal server closes with the app. Resolves with the
 * internal server's port, or null when the service's own port serves the metrics.
 */
export async function exposeMetrics(app: INestApplication, config: BaseConfig): Promise<number | null> {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const port = config.metricsPort;
  if (port === null) {
    fastify.get(METRICS_PATH, async (_request, reply) => reply.type(register.contentType).send(await register.metrics()));
    return null;
  }
  const server = createServer((request, response) => void answerInternal(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fastify.addHook('onClose', (_instance, done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
  return (server.address() as AddressInfo).port;
}

async function answerInternal(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found: this port serves GET /metrics only.\n');
    return;
  }
  try {
    const body = await register.metrics();
    response.writeHead(200, { 'content-type': register.contentType }).end(body);
  } catch {
    response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected.\n');
  }
}
