import type { MemberRole } from '../http/request-context';

/*
 * The names of identity that the public API itself shows (CONTRACT.md §8, §12): a tenant's plans, a team member's roles
 * and the permissions. Plain values that import no feature, so the API reference (openapi/response-schemas.ts) and the
 * quotas can name them without importing identity/, whose controllers use the reference's decorators (a folder cycle,
 * see folder-cycles.spec.ts). They would join libs/contracts with the response schemas (issue 34 point 3).
 */

/** A tenant's plan: its daily quota (quotas/) and its prices (billing-service). */
export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** A team member's roles; what each may do is `ROLE_PERMISSIONS` (identity/auth/permissions.ts). */
export const MEMBER_ROLES = ['owner', 'admin', 'agent'] as const satisfies readonly MemberRole[];

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
