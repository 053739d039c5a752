import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { QuotaState } from '../quotas/quota.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's tenant, set by the AuthGuard from the credential (never from the request body). */
    tenantId?: string;
    /** The caller's daily quota after counting this request (absent when Redis could not be reached). */
    quota?: QuotaState;
  }
}

/** The authenticated caller's tenant id. Only on routes the AuthGuard protects. */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const tenantId = ctx.switchToHttp().getRequest<FastifyRequest>().tenantId;
  if (!tenantId) throw new Error('@Tenant() used on a route without authentication');
  return tenantId;
});

/** The request's id (`x-request-id`), passed on to the events and calls it causes. */
export const RequestId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => String(ctx.switchToHttp().getRequest<FastifyRequest>().id));

export const PUBLIC_ROUTE = 'parley:public-route';

/** Exempts an `/api/v1/*` route from authentication (account creation). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
