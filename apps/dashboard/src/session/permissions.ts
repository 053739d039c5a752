import { useCallback } from 'react';
import type { DashboardApi } from '../api';
import { useSession } from './session';

/** The member `GET /api/v1/team/me` names, with what their role allows. */
export type SignedInMember = Awaited<ReturnType<DashboardApi['me']>>;
/** A named piece of work a role may do (`campaigns.manage`); the gateway refuses the rest with 403. */
export type Permission = SignedInMember['permissions'][number];

/** What a member lacking a permission is told the page is for ("Your role cannot …"). */
export const PERMISSION_WORK: Record<Permission, string> = {
  'conversations.reply': 'answer conversations',
  'contacts.edit': 'add or edit contacts',
  'messages.send': 'send messages or use the playground',
  'agents.manage': 'change AI agents',
  'channels.manage': 'connect or disconnect channels',
  'templates.manage': 'manage message templates',
  'campaigns.manage': 'see or run campaigns',
  'contacts.export': 'export contacts',
  'billing.manage': 'see or manage billing',
  'team.manage': 'manage the team',
  'team.manage_owners': 'manage owners',
  'webhooks.manage': 'manage webhooks',
  'credentials.manage': 'manage API keys and credentials',
  'settings.manage': "change the account's settings",
};

/**
 * Whether the signed-in session may do a piece of work: a team member as their role's permissions say, a program's
 * credential (API key, client token) everything, as the gateway decides. Pages ask before they request or link what
 * the role cannot use, so a member never meets a 403.
 */
export function useCan(): (permission: Permission) => boolean {
  const { session } = useSession();
  const permissions = session?.kind === 'member' ? session.member.permissions : undefined;
  return useCallback((permission: Permission) => session !== undefined && (permissions === undefined || permissions.includes(permission)), [session, permissions]);
}
