import type { Server } from 'node:http';

/** How long a client may take to send a request, and how long an idle kept-alive connection stays open. */
export interface HttpTimeouts {
  /** The request line and headers must arrive within this (slowloris headers). */
  HTTP_HEADERS_TIMEOUT_MS: number;
  /** The whole request, body included, must arrive within this (slowloris bodies). Answers may take longer (SSE). */
  HTTP_REQUEST_TIMEOUT_MS: number;
  /** An idle kept-alive connection is closed after this (above the usual 60 s of load balancers). */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number;
  /** How often Node checks the two request deadlines (its default of 30 s would let a slow client overstay by that). */
  HTTP_TIMEOUT_CHECK_INTERVAL_MS: number;
}

export const DEFAULT_HTTP_TIMEOUTS: Readonly<HttpTimeouts> = {
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 72_000,
  HTTP_TIMEOUT_CHECK_INTERVAL_MS: 1_000,
};

/**
 * Bounds how long a client can hold a connection without completing its request. Fastify disables Node's request
 * timeout by default, so without this a client trickling a body one byte at a time keeps a socket (and its parser
 * state) forever. Must run before `listen` (the check interval is armed then). Node answers 408 and closes.
 */
export function applyHttpTimeouts(server: Server, timeouts: HttpTimeouts): void {
  // Node refuses a headers timeout above the request timeout (both bound the same request).
  server.headersTimeout = Math.min(timeouts.HTTP_HEADERS_TIMEOUT_MS, timeouts.HTTP_REQUEST_TIMEOUT_MS);
  server.requestTimeout = timeouts.HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = timeouts.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = timeouts.HTTP_TIMEOUT_CHECK_INTERVAL_MS;
}
