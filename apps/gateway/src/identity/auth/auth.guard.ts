import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from '../../http/request-context';
import { RequestAuthentication, isTenantPath } from './request-authentication';

/**
 * Installed globally so a new tenant route cannot forget authentication. The credential was already checked and the
 * request counted on arrival (RequestAuthentication, before the body was read); this makes sure of it and, now that
 * the body is parsed, checks a body `tenant_id` against the caller's tenant (403 when it differs) and drops it, so
 * downstream DTOs and services never see a tenant the caller chose.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly authentication: RequestAuthentication,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!isTenantPath(request.routeOptions.url ?? request.url)) return true;
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;

    await this.authentication.ensure(request, context.switchToHttp().getResponse<FastifyReply>());
    consumeBodyTenant(request.body, request.tenantId!);
    return true;
  }
}

function consumeBodyTenant(body: unknown, tenantId: string): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('tenant_id' in body)) return;
  const claimed = (body as { tenant_id?: unknown }).tenant_id;
  if (claimed !== tenantId) {
    throw new ProblemException(
      problem(403, ProblemTypes.forbidden, 'Forbidden', 'tenant_id does not match the tenant of your credentials.', [
        { field: 'tenant_id', message: 'tenant_id must be your own tenant id (or be left out)' },
      ]),
    );
  }
  delete (body as { tenant_id?: unknown }).tenant_id;
}
