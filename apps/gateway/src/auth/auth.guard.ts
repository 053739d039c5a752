import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC_ROUTE } from '../http/request-context';
import { QuotaService } from '../quotas/quota.service';
import { AuthService } from './auth.service';

/** Tenant routes (CONTRACT.md §2): everything under these prefixes needs a credential unless marked `@Public()`. */
const PROTECTED_PREFIXES = ['/api/v1/', '/v1/'];

/**
 * The one authentication point, installed globally so a new tenant route cannot forget it; it also counts the
 * request against the tenant's daily quota. It takes the tenant
 * from the credential only; a body `tenant_id` is checked against it (403 when it differs) and then dropped, so
 * downstream DTOs and services never see a tenant the caller chose.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
    private readonly quotas: QuotaService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const route = request.routeOptions.url ?? request.url;
    if (!PROTECTED_PREFIXES.some((prefix) => route.startsWith(prefix))) return true;
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;

    const { tenantId, plan } = await this.auth.authenticate(request.headers.authorization);
    request.tenantId = tenantId;
    // Every authenticated request counts, whatever its answer (CONTRACT.md §8); its RateLimit fields go on every answer.
    const quota = await this.quotas.consume(tenantId, plan);
    if (quota) {
      request.quota = quota;
      void context.switchToHttp().getResponse<FastifyReply>().headers(this.quotas.headers(quota));
      this.quotas.enforce(quota);
    }
    consumeBodyTenant(request.body, tenantId);
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
