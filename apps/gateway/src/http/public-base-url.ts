import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway.config';

/** The origin links to the dashboard start with: `PUBLIC_BASE_URL`, else the one the request came to. */
export function publicBaseUrl(config: GatewayConfig, request: FastifyRequest): string {
  return config.PUBLIC_BASE_URL || `${request.protocol}://${request.host}`;
}
