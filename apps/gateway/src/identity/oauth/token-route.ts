import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteBodyTypes } from '../../http/fastify-setup';
import type { AddressLimitRefusal } from '../../rate-limits/address-limit.guard';
import { OAuthError, sendOAuthError } from './oauth.errors';

/** `POST /oauth/token` (OAuthController): its errors keep the OAuth shape (RFC 6749 §5.2), even before Nest sees them. */
export const TOKEN_ROUTE = '/oauth/token';

/** The token endpoint takes form bodies (RFC 6749 §4.4.2) as well as JSON, and refuses any other in the OAuth shape. */
export const TOKEN_BODY_TYPES: RouteBodyTypes = {
  url: TOKEN_ROUTE,
  types: ['application/x-www-form-urlencoded', 'application/json'],
  refuse: (reply, detail) => sendOAuthError(reply, new OAuthError('invalid_request', detail, undefined, 415)),
};

/** Errors of the token endpoint that happen before Nest sees the request (body parsing) keep the OAuth shape. */
export function keepTokenErrorsInOAuthShape(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (route.url !== TOKEN_ROUTE) return;
    route.errorHandler = (error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      sendOAuthError(reply, new OAuthError('invalid_request', status === 413 ? 'The request body is too large.' : 'The request body could not be parsed.', undefined, status));
    };
  });
}

/**
 * An address over the token endpoint's limit is refused in the OAuth shape too (RFC 6749 §5.2 has no rate-limit code;
 * `slow_down`, registered for the token endpoint by RFC 8628 §3.5, says exactly "retry later, more slowly"), so OAuth
 * client libraries still find an `error` they can read.
 */
export const slowDown: AddressLimitRefusal = (detail, headers) => new OAuthError('slow_down', detail, undefined, 429, headers);
