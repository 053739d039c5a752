import type { FastifyRequest } from 'fastify';

/** The origin links to the dashboard start with: `PUBLIC_BASE_URL` (the gateway's config), else the one the request came to. */
export function publicBaseUrl(config: { readonly PUBLIC_BASE_URL: string }, request: FastifyRequest): string {
  return config.PUBLIC_BASE_URL || `${request.protocol}://${request.host}`;
}
