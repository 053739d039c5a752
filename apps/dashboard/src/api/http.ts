import { createParleyClient, type ParleyClient } from '@parley/api-client';

/** An error answer of the API, carrying what the user should read: the problem+json `detail` (or OAuth's description). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Per-field rules the request broke (`faqs[0].question`: …). */
    readonly fieldErrors: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

/** The readable cookie the gateway sets beside the session cookie; its value goes back as `X-CSRF-Token` (double submit). */
export const CSRF_COOKIE = 'parley_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * The typed API client (`@parley/api-client`) on the gateway's own origin. `token()` is read before every request, so
 * signing in or out just changes what it returns; with no token, the browser's session cookie (a signed-in team
 * member) is the credential, and unsafe methods carry the CSRF token. `onUnauthorized` hears of a 401 of the session's
 * own credential (an expired token or session, a revoked key), not of a request that carried another one.
 */
export function createSessionClient(token: () => string | undefined, onUnauthorized: () => void, cookieSession: () => boolean): ParleyClient {
  const client = createParleyClient({ baseUrl: window.location.origin, token });
  client.use({
    onRequest({ request }) {
      if (SAFE_METHODS.has(request.method) || request.headers.has('authorization')) return undefined;
      const csrf = readCookie(CSRF_COOKIE);
      if (csrf) request.headers.set(CSRF_HEADER, csrf);
      return request;
    },
    onResponse({ request, response }) {
      if (response.status !== 401) return undefined;
      const sent = request.headers.get('authorization');
      const ownToken = sent !== null && sent === `Bearer ${token() ?? ''}`;
      const ownCookie = sent === null && cookieSession();
      if (ownToken || ownCookie) onUnauthorized();
      return undefined;
    },
  });
  return client;
}

/** The body of a successful answer, or an ApiError with the server's explanation. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await call;
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  if (answer.response.ok) return answer.data as T;
  throw toApiError(answer.response.status, answer.error);
}

function toApiError(status: number, body: unknown): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const errors = Array.isArray(b.errors) ? (b.errors as { field: string; message: string }[]) : [];
  const message =
    (typeof b.detail === 'string' && b.detail) || (typeof b.error_description === 'string' && b.error_description) || `The request failed (HTTP ${status}).`;
  return new ApiError(status, message, errors);
}
