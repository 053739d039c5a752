import { createParleyClient, type ParleyClient } from '@parley/api-client';

/**
 * The typed client tenants use (`@parley/api-client`, generated from the gateway's `/openapi.json`), so every
 * documented call of the end-to-end tests also checks the document against the running server. Raw `http()` stays
 * for deliberately malformed requests and for the sandbox's own routes.
 */
export function apiClient(gateway: string, token?: string): ParleyClient {
  return createParleyClient({ baseUrl: gateway, token, fetch: (request) => fetch(request, { signal: AbortSignal.timeout(15_000) }) });
}

/** A tenant of its own: an account (CONTRACT.md §2), its client credentials exchanged for a token, a client carrying it. */
export async function signUp(gateway: string, name: string): Promise<{ tenantId: string; token: string; api: ParleyClient }> {
  const anonymous = apiClient(gateway);
  const account = await anonymous.POST('/api/v1/accounts', { body: { name } });
  expect(account.response.status).toBe(201);
  const { tenant_id, client_id, client_secret } = account.data!;
  const issued = await anonymous.POST('/oauth/token', { body: { grant_type: 'client_credentials', client_id, client_secret } });
  expect(issued.response.status).toBe(200);
  const token = issued.data!.access_token;
  return { tenantId: tenant_id, token, api: apiClient(gateway, token) };
}
