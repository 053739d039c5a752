import { Controller, Get, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemException } from '@parley/service-kit';
import { PERMISSIONS, type Permission } from '@parley/contracts';
import type { SignedInMember } from '../../http/request-context';
import { PermissionsGuard, Requires, can, permissionRefused, permissionsOf } from './permissions';

@Controller('things')
@Requires('campaigns.manage')
class GuardedController {
  @Get()
  list(): void {}

  @Get('open')
  @Requires()
  open(): void {}

  @Get('export')
  @Requires('contacts.export', 'billing.manage')
  exportAll(): void {}
}

/** The guard's view of a request to a handler of GuardedController by `member` (none: a program). */
function contextOf(handler: keyof GuardedController, member?: SignedInMember): ExecutionContext {
  return {
    getType: () => 'http',
    getHandler: () => GuardedController.prototype[handler],
    getClass: () => GuardedController,
    switchToHttp: () => ({ getRequest: () => ({ member }) }),
  } as unknown as ExecutionContext;
}

const member = (role: SignedInMember['role']): SignedInMember => ({ id: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ0', role });

/** The guard's 403 as problem details, or null when it lets the request through. */
function refusal(handler: keyof GuardedController, who?: SignedInMember): { status: number; type: string; detail: string } | null {
  try {
    expect(new PermissionsGuard(new Reflector()).canActivate(contextOf(handler, who))).toBe(true);
    return null;
  } catch (err) {
    if (!(err instanceof ProblemException)) throw err;
    return { status: err.problem.status, type: err.problem.type, detail: err.problem.detail };
  }
}

describe('permissions', () => {
  it('gives an agent the inbox, contacts and sending only; an admin all but owners; an owner everything', () => {
    expect(permissionsOf('agent')).toEqual(['conversations.reply', 'contacts.edit', 'messages.send']);
    const everything = Object.keys(PERMISSIONS) as Permission[];
    expect(permissionsOf('owner')).toEqual(everything);
    expect(permissionsOf('admin')).toEqual(everything.filter((p) => p !== 'team.manage_owners'));
    for (const off of ['agents.manage', 'channels.manage', 'campaigns.manage', 'billing.manage', 'team.manage', 'webhooks.manage', 'credentials.manage', 'contacts.export'] as const) {
      expect({ off, agent: can(member('agent'), off) }).toEqual({ off, agent: false });
    }
  });

  it('lets a program (no member) do everything', () => {
    for (const permission of Object.keys(PERMISSIONS) as Permission[]) expect(can(null, permission)).toBe(true);
  });

  describe('PermissionsGuard', () => {
    it('refuses a member whose role lacks the controller’s permission with a 403 naming the role, the work and who may', () => {
      expect(refusal('list', member('agent'))).toEqual({
        status: 403,
        type: 'https://parley.dev/problems/forbidden',
        detail: 'A team member with the role "agent" may not see or run campaigns (it takes the permission campaigns.manage, which an owner or an admin has).',
      });
      expect(refusal('list', member('admin'))).toBeNull();
      expect(refusal('list', member('owner'))).toBeNull();
      expect(refusal('list')).toBeNull();
    });

    it('lets a handler’s own list win: @Requires() opens it to every role, a longer list needs each permission', () => {
      expect(refusal('open', member('agent'))).toBeNull();
      expect(refusal('exportAll', member('agent'))?.detail).toContain('may not export the contacts (it takes the permission contacts.export');
      expect(refusal('exportAll', member('admin'))).toBeNull();
    });

    it('names the owner alone for what only owners may do', () => {
      expect(permissionRefused('admin', 'team.manage_owners').problem.detail).toBe(
        'A team member with the role "admin" may not invite, change or remove an owner, or make anyone an owner (it takes the permission team.manage_owners, which an owner has).',
      );
    });
  });
});
