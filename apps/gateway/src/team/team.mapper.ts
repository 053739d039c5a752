import type { MemberRole } from '../http/request-context';
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
