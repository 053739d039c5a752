import type { ParleyClient, components } from '@parley/api-client';
import { unwrap } from './http';

// Team members and their sessions (CONTRACT.md §12).

type Schemas = components['schemas'];
export type Member = Schemas['TeamMember'];
/** An invitation just made: its link is shown this once. */
export type InvitedMember = Schemas['InvitedMember'];
export type MemberRole = Member['role'];
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'agent'];

export function createTeamApi(api: ParleyClient) {
  return {
    /** Makes the account and its owner; the answer carries the program credentials, shown once. */
    signUpWithPassword: (body: { name: string; email: string; password: string; owner_name?: string }) => unwrap(api.POST('/api/v1/accounts', { body })),
    /** Starts a session: the gateway sets the httpOnly session cookie (and the readable CSRF cookie). */
    login: (email: string, password: string) => unwrap(api.POST('/auth/login', { body: { email, password } })),
    logout: () => unwrap(api.POST('/auth/logout')),
    /** The member the session cookie names; 401 without a session. */
    me: () => unwrap(api.GET('/api/v1/team/me')),
    requestPasswordReset: (email: string) => unwrap(api.POST('/auth/password-reset', { body: { email } })),
    confirmPasswordReset: (token: string, password: string) => unwrap(api.POST('/auth/password-reset/confirm', { body: { token, password } })),
    acceptInvite: (token: string, password: string) => unwrap(api.POST('/api/v1/team/accept', { body: { token, password } })),

    listTeam: () => unwrap(api.GET('/api/v1/team', { params: { query: { limit: 100 } } })),
    invite: (body: { email: string; name: string; role: MemberRole }) => unwrap(api.POST('/api/v1/team', { body })),
    changeRole: (id: string, role: MemberRole) => unwrap(api.PATCH('/api/v1/team/{id}', { params: { path: { id } }, body: { role } })),
    removeMember: (id: string) => unwrap(api.DELETE('/api/v1/team/{id}', { params: { path: { id } } })),
  };
}
