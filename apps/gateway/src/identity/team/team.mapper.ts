import type { Permission } from '../../contracts/identity';
import { ROLE_DESCRIPTIONS, permissionsOf } from '../auth/permissions';
import type { MemberRole } from '../../http/request-context';
import type { MemberEntity, MemberStatus } from './member.entity';

/** A team member as listed (CONTRACT.md §12): never a password hash or a link token. */
export interface MemberRecord {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  created_at: string;
}

/** An invitation as created: the only time its link is shown. */
export interface InvitedMember extends MemberRecord {
  invite_url: string;
}

export function toMemberRecord(member: MemberEntity): MemberRecord {
  return { id: member.id, email: member.email, name: member.name, role: member.role, status: member.status, created_at: member.createdAt.toISOString() };
}

/** An invitation as its accept page shows it (`GET /api/v1/team/accept?token=`): the business and who invited. */
export interface InvitationRecord {
  email: string;
  name: string;
  role: MemberRole;
  business: { name: string };
  /** Null when a program (an API key) invited, or the inviter has left the team. */
  invited_by: { name: string; email: string } | null;
  expires_at: string;
}

/** The signed-in member (`GET /api/v1/team/me`) with what their role lets them do, for the dashboard to show only that. */
export interface SignedInMemberRecord extends MemberRecord {
  permissions: Permission[];
}

export function toSignedInMemberRecord(member: MemberRecord): SignedInMemberRecord {
  return { ...member, permissions: permissionsOf(member.role) };
}

/** A role as `GET /api/v1/team/roles` lists it. */
export interface RoleRecord {
  role: MemberRole;
  description: string;
  permissions: Permission[];
}

export function roleRecords(): RoleRecord[] {
  return (Object.keys(ROLE_DESCRIPTIONS) as MemberRole[]).map((role) => ({ role, description: ROLE_DESCRIPTIONS[role], permissions: permissionsOf(role) }));
}
