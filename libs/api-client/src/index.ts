export { createParleyClient, type ParleyClient, type ParleyClientOptions, type TokenSource } from './client';
export { isProblemDetails, type OAuthErrorBody, type ProblemDetails, type ProblemFieldError } from './problem';
export type { components, paths } from './generated/parley-api';
