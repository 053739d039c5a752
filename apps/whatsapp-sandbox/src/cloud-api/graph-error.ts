import { newFbtraceId } from './ids';

/** The body of a Graph API error (`{error: {...}}`), as Meta answers it. */
export interface GraphErrorBody {
  message: string;
  type: 'OAuthException' | 'GraphMethodException';
  code: number;
  error_subcode?: number;
  error_data?: { messaging_product: 'whatsapp'; details: string };
  is_transient?: boolean;
  fbtrace_id: string;
}

/**
 * An error answered in the Graph API's own shape rather than problem+json: the Cloud-API routes of the sandbox must
 * fail exactly like Meta's, so the messaging service's error handling is exercised against the real format.
 */
export class GraphApiException extends Error {
  constructor(
    readonly status: number,
    readonly body: Omit<GraphErrorBody, 'fbtrace_id'>,
  ) {
    super(body.message);
  }

  toResponse(): { error: GraphErrorBody } {
    return { error: { ...this.body, fbtrace_id: newFbtraceId() } };
  }
}

/** The canned errors the sandbox answers with; messages follow Meta's wording (`(#code) …`). */
export const GraphErrors = {
  /** Missing or empty access token: Meta's 190 with HTTP 401. */
  missingToken: () =>
    new GraphApiException(401, { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190 }),

  /** An id that names no object the token can reach (Meta's "Unsupported post/get request", subcode 33). */
  unknownObject: (method: 'get' | 'post', id: string) =>
    new GraphApiException(400, {
      message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
    }),

  unknownPath: (path: string) =>
    new GraphApiException(400, { message: `Unknown path components: ${path}`, type: 'OAuthException', code: 2500 }),

  /** A request parameter that is missing or breaks a rule: `(#100) …` with WhatsApp's error_data. */
  invalidParameter: (message: string, details = message) =>
    new GraphApiException(400, {
      message: `(#100) ${message}`,
      type: 'OAuthException',
      code: 100,
      error_data: { messaging_product: 'whatsapp', details },
    }),

  /** A parameter that is well-formed but not an acceptable value (e.g. a recipient that is no phone number). */
  invalidValue: (details: string) =>
    new GraphApiException(400, {
      message: '(#131009) Parameter value is not valid',
      type: 'OAuthException',
      code: 131009,
      error_data: { messaging_product: 'whatsapp', details },
    }),

  /** Too many messages to one customer in a short time (the pair rate limit). */
  pairRateLimit: () =>
    new GraphApiException(400, {
      message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
      type: 'OAuthException',
      code: 131056,
      error_data: { messaging_product: 'whatsapp', details: 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.' },
    }),

  unexpected: () =>
    new GraphApiException(500, {
      message: 'An unexpected error has occurred. Please retry your request later.',
      type: 'OAuthException',
      code: 2,
      is_transient: true,
    }),
};
