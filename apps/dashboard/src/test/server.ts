import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { member, wallet } from './fixtures';

/** A problem+json answer (CONTRACT.md §1), as the gateway refuses a request: its `detail` and, for a 400, `errors[]`. */
export function problem(status: number, detail: string, errors: { field: string; message: string }[] = []) {
  const body = { type: 'about:blank', title: 'Refused', status, detail, ...(errors.length ? { errors } : {}) };
  return HttpResponse.json(body, { status, headers: { 'content-type': 'application/problem+json' } });
}

/** A JSON answer (typed by the caller's fixture, so a fixture that no longer fits the generated client fails typecheck). */
export const json = <T extends JsonBodyType>(body: T, status = 200) => HttpResponse.json(body, { status });

/** The event stream, open and quiet: views stay as loaded unless a test reads them again. */
function quietEventStream() {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(': connected\n\n'));
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * What every signed-in page asks besides its own reads: who is signed in (an owner, every permission), the live event
 * stream, the wallet (the shell's low-balance banner) and the team's presence (the shell's Available switch; nobody
 * seen yet: the member is `online`, the API's default). A test adds its page's routes with `server.use(...)`; any
 * request no handler answers fails the test (`onUnhandledRequest: 'error'`), so a page asking something new is seen.
 */
export const server = setupServer(
  http.get('/api/v1/team/me', () => json(member())),
  http.get('/api/v1/events/stream', quietEventStream),
  http.get('/api/v1/billing/wallet', () => json(wallet())),
  http.get('/api/v1/team/presence', () => json({ data: [] })),
);
