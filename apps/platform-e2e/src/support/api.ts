import { createParleyClient, type ParleyClient } from '@parley/api-client';

/**
 * The typed client tenants use (`@parley/api-client`, generated from the gateway's `/openapi.json`), so every
 * documented call of the end-to-end tests also checks the document against the running server. Raw `http()` stays
 * for deliberately malformed requests and for the sandbox's own routes.
 */
export function apiClient(gateway: string, token?: string): ParleyClient {
  return createParleyClient({ baseUrl: gateway, token, fetch: (request) => fetch(request, { signal: AbortSignal.timeout(15_000) }) });
}
