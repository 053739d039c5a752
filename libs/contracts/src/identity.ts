/*
 * The names of identity that the public API shows (CONTRACT.md §8, §12): a tenant's plans, a team member's roles and
 * statuses, and the permissions. The gateway owns identity; the API's answers (api/responses.ts) name these.
 */

/** A tenant's plan: its daily quota (the gateway's quotas) and its prices (billing-service). */
export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const MEMBER_ROLES = ['owner', 'admin', 'agent'] as const;
/** A team member's role: `GET /api/v1/team/roles` lists what each may do. */
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** `invited` until the member accepts the invitation and sets a password. */
export type MemberStatus = 'invited' | 'active';

/**
 * What a team member may do (CONTRACT.md §12): each permission names a piece of work, each role a set of them. Routes
 * declare the permission they take with `@Requires(...)`; `GET /api/v1/team/me` lists the signed-in member's, so the
 * dashboard shows only what the role can do. A route without `@Requires` is open to every role.
 */
export const PERMISSIONS = {
  'conversations.reply': 'answer conversations and add notes',
  'contacts.edit': 'add and edit contacts, companies and deals',
  'messages.send': 'send messages and use the playground',
  'agents.manage': 'change AI agents or their knowledge',
  'channels.manage': 'connect, change or disconnect channels',
  'templates.manage': 'submit or delete message templates',
  'campaigns.manage': 'see or run campaigns',
  'contacts.export': 'export the contacts',
  'billing.manage': 'see or manage billing',
  'team.manage': 'invite, change or remove team members',
  'team.manage_owners': 'invite, change or remove an owner, or make anyone an owner',
  'webhooks.manage': 'see or manage webhooks',
  'credentials.manage': 'see or manage API keys and credentials',
  'settings.manage': "change the account's settings (its own LLM, pipelines, the calendar feed)",
} as const;

export type Permission = keyof typeof PERMISSIONS;

/** `POST /api/v1/accounts` answer: the secret and the key are shown this once. */
export interface CreatedAccount {
  /** @idPrefix ten */
  tenant_id: string;
  /** A new account is on the free plan. */
  plan: 'free';
  client_id: string;
  client_secret: string;
  /** The account's first API key (`parley_sk_…`). */
  api_key: string;
}

/** An access token (`POST /oauth/token`, `POST /auth/login`): a short-lived JWT to send as `Authorization: Bearer`. */
export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  /**
   * Seconds until it expires.
   * @apiType integer
   */
  expires_in: number;
}

/** The errors of the token endpoint (RFC 6749 §5.2); `slow_down` when a client address failed too often (429). */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'slow_down';

/** An error of `POST /oauth/token`, in the OAuth shape (RFC 6749 §5.2), not problem+json. */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description: string;
}

/** An API key as listed: never the secret, only the prefix that tells keys apart. */
export interface ApiKeyRecord {
  /** @idPrefix key */
  id: string;
  name: string | null;
  prefix: string;
  created_at: string;
}

/** A key as created: the only time its secret is shown. */
export interface CreatedApiKey {
  /** @idPrefix key */
  id: string;
  name: string | null;
  /** The secret (`parley_sk_…`), shown this once. */
  api_key: string;
  created_at: string;
}

/** A team member as listed (CONTRACT.md §12): never a password hash or a link token. */
export interface MemberRecord {
  /** @idPrefix usr */
  id: string;
  /** @apiFormat email */
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  created_at: string;
}

/** An invitation as created: the only time its link is shown. */
export interface InvitedMember extends MemberRecord {
  /**
   * The invitation link, shown this once.
   * @apiFormat uri
   */
  invite_url: string;
}

/** An invitation as its accept page shows it (`GET /api/v1/team/accept?token=`): the business and who invited. */
export interface InvitationRecord {
  /** @apiFormat email */
  email: string;
  name: string;
  role: MemberRole;
  business: { name: string };
  /** Null when a program (an API key) invited, or the inviter has left the team. */
  invited_by: InvitationSender | null;
  expires_at: string;
}

export interface InvitationSender {
  name: string;
  /** @apiFormat email */
  email: string;
}

/** The signed-in member (`GET /api/v1/team/me`) with what their role lets them do, for the dashboard to show only that. */
export interface SignedInMemberRecord extends MemberRecord {
  /** What the member's role allows; the dashboard shows only this. */
  permissions: Permission[];
}

/** A role as `GET /api/v1/team/roles` lists it. */
export interface RoleRecord {
  role: MemberRole;
  description: string;
  permissions: Permission[];
}

/** `GET /api/v1/usage` (CONTRACT.md §9): the tenant's daily request quota. */
export interface UsageRecord {
  plan: Plan;
  /**
   * Requests allowed per UTC day; null when the plan is unlimited.
   * @apiType integer
   */
  limit: number | null;
  /**
   * Authenticated requests counted today, this one included.
   * @apiType integer
   */
  used_today: number;
  resets_at: string;
}

/** A tenant's plan as an operator set it (`PATCH /admin/v1/tenants/{tenant_id}`). */
export interface TenantPlanRecord {
  /** @idPrefix ten */
  tenant_id: string;
  plan: Plan;
}
