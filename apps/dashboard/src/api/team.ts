import type { ParleyClient } from '@parley/api-client';
import { loose, unwrap } from './http';

// Team members and their sessions (CONTRACT.md §12).

export type MemberRole = 'owner' | 'admin' | 'agent';
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'agent'];

export interface Member {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  status: 'invited' | 'active';
  created_at: string;
}

/** An invitation just made: its link is shown this once. */
export interface InvitedMember extends Member {
  invite_url: string;
}

export interface LoginAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
}

export function createTeamApi(client: ParleyClient) {
  const api = loose(client);
  return {
    /** Makes the account and its owner; the answer carries the program credentials, shown once. */
    signUpWithPassword: (body: { name: string; email: string; password: string; owner_name?: string }) => unwrap(client.POST('/api/v1/accounts', { body: body as never })),
    /** Starts a session: the gateway sets the httpOnly session cookie (and the readable CSRF cookie). */
    login: (email: string, password: string) => unwrap(api.POST('/auth/login', { body: { email, password } })) as Promise<LoginAnswer>,
    logout: () => unwrap(api.POST('/auth/logout')),
    /** The member the session cookie names; a 401 when there is no session. */
    me: () => unwrap(api.GET('/api/v1/team/me')) as Promise<Member>,
    requestPasswordReset: (email: string) => unwrap(api.POST('/auth/password-reset', { body: { email } })),
    confirmPasswordReset: (token: string, password: string) => unwrap(api.POST('/auth/password-reset/confirm', { body: { token, password } })),
    acceptInvite: (token: string, password: string) => unwrap(api.POST('/api/v1/team/accept', { body: { token, password } })) as Promise<Member>,

    listTeam: () => unwrap(api.GET('/api/v1/team', { params: { query: { limit: 100 } } })) as Promise<{ data: Member[] }>,
    invite: (body: { email: string; name: string; role: MemberRole }) => unwrap(api.POST('/api/v1/team', { body })) as Promise<InvitedMember>,
    changeRole: (id: string, role: MemberRole) => unwrap(api.PATCH('/api/v1/team/{id}', { params: { path: { id } }, body: { role } })) as Promise<Member>,
    removeMember: (id: string) => unwrap(api.DELETE('/api/v1/team/{id}', { params: { path: { id } } })),
  };
}
