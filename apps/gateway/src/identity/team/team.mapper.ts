import type { MemberRecord, MemberRole, RoleRecord, SignedInMemberRecord } from '@parley/contracts';
import { ROLE_DESCRIPTIONS, permissionsOf } from '../auth/permissions';
import type { MemberEntity } from './member.entity';

/** A team member as the API answers it (CONTRACT.md §12): never a password hash or a link token. */
export function toMemberRecord(member: MemberEntity): MemberRecord {
  return { id: member.id, email: member.email, name: member.name, role: member.role, status: member.status, created_at: member.createdAt.toISOString() };
}

/** The signed-in member with what their role lets them do. */
export function toSignedInMemberRecord(member: MemberRecord): SignedInMemberRecord {
  return { ...member, permissions: permissionsOf(member.role) };
}

/** Every role with its description and permissions (`GET /api/v1/team/roles`). */
export function roleRecords(): RoleRecord[] {
  return (Object.keys(ROLE_DESCRIPTIONS) as MemberRole[]).map((role) => ({ role, description: ROLE_DESCRIPTIONS[role], permissions: permissionsOf(role) }));
}
