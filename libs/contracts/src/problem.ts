/** RFC 9457 problem details, the one error shape of the public API (CONTRACT.md §1). */
export interface FieldError {
  /** Path of the field, nested fields written `faqs[0].question`. */
  field: string;
  message: string;
}

export interface Problem {
  /**
   * Stable per kind of error (open: a client must cope with a kind added later),
   * @apiFormat uri
   */
  type: string;
  title: string;
  /** @apiType integer */
  status: number;
  detail: string;
  instance?: string;
  errors?: FieldError[];
}

/** RFC 9457 problem details (`application/problem+json`), every error of the API: `type` is stable per kind of error. */
export interface ProblemDetails extends Problem {
  /** The `x-request-id` of the request, to quote when asking about it. */
  request_id: string;
}

const BASE = 'https://parley.dev/problems';

/** Stable `type` URIs, one per kind of error. */
export const ProblemTypes = {
  validation: `${BASE}/validation-error`,
  malformedJson: `${BASE}/malformed-json`,
  unsupportedMediaType: `${BASE}/unsupported-media-type`,
  payloadTooLarge: `${BASE}/payload-too-large`,
  unauthorized: `${BASE}/unauthorized`,
  forbidden: `${BASE}/forbidden`,
  notFound: `${BASE}/not-found`,
  methodNotAllowed: `${BASE}/method-not-allowed`,
  conflict: `${BASE}/conflict`,
  /** A marketing template to a customer who opted out of the tenant's marketing (CONTRACT.md §12). */
  optedOut: `${BASE}/opted-out`,
  /** A free-form message to a customer who has not written in 24 h: only a template may be sent (CONTRACT.md §4, §12). */
  windowClosed: `${BASE}/customer-service-window-closed`,
  idempotencyMismatch: `${BASE}/idempotency-key-reused`,
  rateLimited: `${BASE}/rate-limited`,
  quotaExceeded: `${BASE}/quota-exceeded`,
  /** A paid send whose price the tenant's prepaid balance cannot cover (CONTRACT.md §16). */
  insufficientFunds: `${BASE}/insufficient-funds`,
  /** `PUT /api/v1/agents/{name}?require_tests=pass` when a case of the agent's test set fails (CONTRACT.md §19). */
  testsFailed: `${BASE}/tests-failed`,
  unavailable: `${BASE}/service-unavailable`,
  internal: `${BASE}/internal-error`,
} as const;

export type ProblemType = (typeof ProblemTypes)[keyof typeof ProblemTypes];

export function problem(status: number, type: ProblemType | string, title: string, detail: string, errors?: FieldError[]): Problem {
  return errors?.length ? { type, title, status, detail, errors } : { type, title, status, detail };
}

export const notFoundProblem = (what: string): Problem =>
  problem(404, ProblemTypes.notFound, 'Not Found', `${what} was not found.`);

export const validationProblem = (errors: FieldError[], detail = 'The request body is not valid.'): Problem =>
  problem(400, ProblemTypes.validation, 'Invalid request', detail, errors);
