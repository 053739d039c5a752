import type { components } from './generated/parley-api';

/** RFC 9457 problem details: the error body of every route except `/oauth/token` (CONTRACT.md §1). */
export type ProblemDetails = components['schemas']['ProblemDetails'];

/** One broken rule of a request, nested fields written `faqs[0].question`. */
export type ProblemFieldError = NonNullable<ProblemDetails['errors']>[number];

/** The OAuth error body of `POST /oauth/token` (RFC 6749 §5.2). */
export type OAuthErrorBody = components['schemas']['OAuthError'];

/** Narrows an unknown error body (e.g. openapi-fetch's `error`) to a problem. */
export function isProblemDetails(value: unknown): value is ProblemDetails {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ProblemDetails>;
  return typeof candidate.type === 'string' && typeof candidate.status === 'number' && typeof candidate.title === 'string';
}
