import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/parley-api';

/** A bearer credential (access token or API key), or a function read before every request (e.g. the dashboard's signed-in session). */
export type TokenSource = string | (() => string | null | undefined | Promise<string | null | undefined>);

export interface ParleyClientOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:3000` (no trailing path). Empty string = same origin (browser). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` unless a request sets its own `authorization` header. */
  token?: TokenSource;
  /** Defaults to `globalThis.fetch`. */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** The typed client: `client.GET('/api/v1/agents/{agent_name}', { params: { path: { agent_name } } })` → `{ data, error, response }`. */
export type ParleyClient = Client<paths>;

/** Creates a typed client of the Parley public API (the same one tenants, the dashboard and the end-to-end tests use). */
export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: options.fetch, headers: options.headers });
  if (options.token !== undefined) client.use(bearerAuth(options.token));
  return client;
}

function bearerAuth(token: TokenSource): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return undefined;
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('authorization', `Bearer ${value}`);
      return request;
    },
  };
}
