import { Injectable, SetMetadata, applyDecorators, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiResponse } from '@nestjs/swagger';
import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import type { MemberRole } from '../http/request-context';
import { errorResponse } from '../openapi/api-route.decorator';

const ROLES = 'parley:roles';

/** The member roles that may manage the tenant's settings (team, API keys, webhooks, channels, billing). */
export const MANAGERS: MemberRole[] = ['owner', 'admin'];
export const EVERY_ROLE: MemberRole[] = ['owner', 'admin', 'agent'];

/**
 * The team member roles allowed on a controller or a handler (the handler's own list wins). It limits people signed
 * in to the dashboard only: API keys and client-credentials tokens act for the whole tenant and keep full access.
 * The routes' documentation gains their 403.
 */
export const Roles = (...roles: MemberRole[]) => applyDecorators(SetMetadata(ROLES, roles), ApiResponse({ status: 403, ...errorResponse(403, 'tenant') }));

/** Refuses a signed-in member whose role is not allowed with 403 (CONTRACT.md §12), before the handler runs. */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const allowed = this.reflector.getAllAndOverride<MemberRole[] | undefined>(ROLES, [context.getHandler(), context.getClass()]);
    const member = context.switchToHttp().getRequest<FastifyRequest>().member;
    if (!allowed || !member || allowed.includes(member.role)) return true;
    throw new ProblemException(
      problem(403, ProblemTypes.forbidden, 'Forbidden', `A team member with the role "${member.role}" may not do this; it takes the role ${allowed.map((r) => `"${r}"`).join(' or ')}.`),
    );
  }
}
