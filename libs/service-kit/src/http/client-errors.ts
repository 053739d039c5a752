import { problem, type Problem, type ProblemDetails } from '@parley/contracts';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

const BASE = 'https://parley.dev/problems';
/** Problem types of the errors Node raises before there is a request to route (see `answerClientError`). */
export const ClientErrorTypes = {
  requestTimeout: `${BASE}/request-timeout`,
  headersTooLarge: `${BASE}/request-header-fields-too-large`,
  malformedRequest: `${BASE}/malformed-request`,
} as const;

function clientProblem(code: string | undefined): Problem {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem(408, ClientErrorTypes.requestTimeout, 'Request Timeout', 'The request was not received in time; the connection is closed.');
    case 'HPE_HEADER_OVERFLOW':
      return problem(431, ClientErrorTypes.headersTooLarge, 'Request Header Fields Too Large', 'The request line and headers must stay under 16 KiB.');
    default:
      return problem(400, ClientErrorTypes.malformedRequest, 'Bad Request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * Fastify's `clientErrorHandler`: errors Node's HTTP parser raises before any route or hook runs (a slow client cut
 * off by the request timeouts, oversized headers, bytes that are not HTTP) are answered as problem+json like every
 * other error (CONTRACT.md §1) instead of Fastify's bare JSON, then the connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one to answer; a response already under way must not be interleaved with another.
  const busy = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const answer = clientProblem(err.code);
  const body = JSON.stringify({ ...answer, request_id: requestId } satisfies ProblemDetails);
  socket.write(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Flush the answer, then close: a slow or broken client gets no further say on this connection.
  socket.destroySoon();
}
