import { Injectable, SetMetadata, applyDecorators, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { PERMISSIONS, ProblemTypes, problem, type MemberRole, type Permission } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyRequest } from 'fastify';
import type { SignedInMember } from '../../http/request-context';
import { errorResponse } from '../../openapi/api-route.decorator';

const EVERY_PERMISSION = Object.keys(PERMISSIONS) as Permission[];
const AGENT_PERMISSIONS: Permission[] = ['conversations.reply', 'contacts.edit', 'messages.send'];

/** Each role's permissions: an `agent` answers conversations and adds contacts; an admin manages all but owners. */
export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: EVERY_PERMISSION,
  admin: EVERY_PERMISSION.filter((p) => p !== 'team.manage_owners'),
  agent: AGENT_PERMISSIONS,
};

/** One line per role, for the team page and the API reference. */
export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  owner: 'Everything, including managing other owners.',
  admin: 'Everything but managing owners: AI agents, channels, campaigns, billing, team, webhooks and API keys.',
  agent: 'Answers conversations and adds notes, contacts and deals; changes no AI agent, channel, campaign, billing, team, webhook or key, and exports no contacts.',
};

/** The permissions of a role, in the catalogue's order. */
export function permissionsOf(role: MemberRole): Permission[] {
  const granted = new Set(ROLE_PERMISSIONS[role]);
  return EVERY_PERMISSION.filter((p) => granted.has(p));
}

/**
 * Whether the caller may do it: a program (API key, client-credentials token, `member` null) acts for the whole tenant
 * and may do everything; a member as their role allows.
 */
export function can(member: SignedInMember | null | undefined, permission: Permission): boolean {
  return !member || ROLE_PERMISSIONS[member.role].includes(permission);
}

/** The roles that have a permission, for the refusal's detail ("owner or admin"). */
export function rolesWith(permission: Permission): MemberRole[] {
  return (Object.keys(ROLE_PERMISSIONS) as MemberRole[]).filter((role) => ROLE_PERMISSIONS[role].includes(permission));
}

/** The 403 a member gets for work their role does not include: it names the role, the work and who may do it. */
export function permissionRefused(role: MemberRole, permission: Permission): ProblemException {
  // Every role's name starts with a vowel: "an owner or an admin".
  const roles = rolesWith(permission).map((r) => `an ${r}`);
  return new ProblemException(
    problem(
      403,
      ProblemTypes.forbidden,
      'Forbidden',
      `A team member with the role "${role}" may not ${PERMISSIONS[permission]} (it takes the permission ${permission}, which ${roles.join(' or ')} has).`,
    ),
  );
}

const REQUIRED = 'parley:permissions';

/**
 * The permissions a controller's or a handler's routes take (the handler's own list wins, so `@Requires()` on a
 * handler opens it to every role; all of a list are needed).
 * It limits people signed in to the dashboard only: API keys and client-credentials tokens keep full access. The
 * routes' OpenAPI operations gain their 403 and `x-parley-permissions`.
 */
export const Requires = (...permissions: Permission[]) =>
  applyDecorators(SetMetadata(REQUIRED, permissions), ApiExtension('x-parley-permissions', permissions), ApiResponse({ status: 403, ...errorResponse(403, 'tenant') }));

/** Refuses a signed-in member whose role lacks a permission the route takes with 403, before the handler runs. */
@Injectable()
export class PermissionsGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const required = this.reflector.getAllAndOverride<Permission[] | undefined>(REQUIRED, [context.getHandler(), context.getClass()]);
    const member = context.switchToHttp().getRequest<FastifyRequest>().member;
    const missing = member ? required?.find((permission) => !can(member, permission)) : undefined;
    if (member && missing) throw permissionRefused(member.role, missing);
    return true;
  }
}
