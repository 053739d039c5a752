import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { MemberRole } from '@parley/contracts';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's tenant, set from the credential when the request arrives (never from the request body). */
    tenantId?: string;
    /** Why the credential was refused on arrival; thrown once the request is logged (RequestAuthentication). */
    authFailure?: unknown;
    /** The signed-in team member (CONTRACT.md §12) when the credential is a member's session; absent for API keys and tokens. */
    member?: SignedInMember;
  }
}


/** A team member acting through the dashboard (or a member's bearer token from `POST /auth/login`). */
export interface SignedInMember {
  id: string;
  role: MemberRole;
}

/** The authenticated caller's tenant id. Only on routes the AuthGuard protects. */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const tenantId = ctx.switchToHttp().getRequest<FastifyRequest>().tenantId;
  if (!tenantId) throw new Error('@Tenant() used on a route without authentication');
  return tenantId;
});

/** The signed-in team member, or null when the caller is a program (API key, client-credentials token). */
export const CurrentMember = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): SignedInMember | null => ctx.switchToHttp().getRequest<FastifyRequest>().member ?? null,
);

/** The request's id (`x-request-id`), passed on to the events and calls it causes. */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => String(ctx.switchToHttp().getRequest<FastifyRequest>().id));

export const PUBLIC_ROUTE = 'parley:public-route';

/**
 * Exempts an `/api/v1/*` route handler from authentication (account creation): in Nest's metadata for the guard, and
 * in the Fastify route's config for the authentication that runs when the request arrives, before any of Nest.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_ROUTE, true), RouteConfig({ [PUBLIC_ROUTE]: true }));
