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

/**
 * The typed API client (`@parley/api-client`) on the gateway's own origin. `token()` is read before every request, so
 * signing in or out just changes what it returns; `onUnauthorized` hears of a 401 of the session's credential (an
 * expired token, a revoked key).
 */
export function createSessionClient(token: () => string | undefined, onUnauthorized: () => void): ParleyClient {
  const client = createParleyClient({ baseUrl: window.location.origin, token });
  client.use({
    onResponse({ request, response }) {
      const sent = request.headers.get('authorization');
      if (response.status === 401 && sent && sent === `Bearer ${token() ?? ''}`) onUnauthorized();
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
