import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { OAuthErrorBody, OAuthErrorCode } from '@parley/contracts';
import type { FastifyReply } from 'fastify';

const STATUS: Record<OAuthErrorCode, number> = { invalid_request: 400, invalid_client: 401, unsupported_grant_type: 400, slow_down: 429 };

/** An error of the token endpoint, answered in the OAuth shape (RFC 6749 §5.2), not as problem+json. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** `WWW-Authenticate` challenge, when the client authenticated with HTTP Basic (RFC 6749 §5.2). */
    readonly challenge?: string,
    readonly status: number = STATUS[error],
    /** Further headers of the answer (`Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }
}

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  if (err.challenge) void reply.header('www-authenticate', err.challenge);
  return reply
    .status(err.status)
    .headers(err.headers)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json')
    .send({ error: err.error, error_description: err.description } satisfies OAuthErrorBody);
}

/** Scoped to the token controller: its own errors get the OAuth shape; anything else falls through to problem+json. */
@Catch(OAuthError)
export class OAuthErrorFilter implements ExceptionFilter<OAuthError> {
  catch(err: OAuthError, host: ArgumentsHost): void {
    sendOAuthError(host.switchToHttp().getResponse<FastifyReply>(), err);
  }
}
