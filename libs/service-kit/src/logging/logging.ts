import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { PinoLogger } from 'nestjs-pino';
import { Store, storage } from 'nestjs-pino/storage';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
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
 * nestjs-pino settings: JSON logs, request id from `x-request-id`, secrets and numbers redacted, health quiet, 2xx/3xx
 * completions at debug.
 */
export function loggerParams(service: string, level: string): Params {
  return {
    pinoHttp: {
      level,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: (req: IncomingMessage) => (req.headers['x-request-id'] as string | undefined) ?? randomUUID(),
      customAttributeKeys: { reqId: 'request_id' },
      // A line per successful request costs hot paths more than it tells; failures stay at info and error.
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggableUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      transport: undefined,
    },
    exclude: [
      { method: RequestMethod.GET, path: 'health' },
      { method: RequestMethod.GET, path: 'health/ready' },
      { method: RequestMethod.GET, path: 'metrics' },
    ],
  };
}

/** Runs a Kafka message's handling with a logger bound to its request id, like an HTTP request's. */
export function requestScope<T>(requestId: string, work: () => Promise<T>): Promise<T> {
  const root = PinoLogger.root;
  if (!root) return work();
  return storage.run(new Store(root.child({ request_id: requestId })), work);
}
