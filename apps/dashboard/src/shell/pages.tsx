import type { ReactNode } from 'react';
import { AcceptInvitePage } from '../pages/accept-invite-page';
import { AgentsPage } from '../pages/agents-page';
import { ApiKeysPage } from '../pages/api-keys-page';
import { BillingPage } from '../pages/billing/billing-page';
import { CampaignsPage } from '../pages/campaigns/campaigns-page';
import { ChannelsPage } from '../pages/channels/channels-page';
import { CompaniesPage } from '../pages/companies/companies-page';
import { ContactsPage } from '../pages/contacts/contacts-page';
import { ConversationsPage } from '../pages/conversations-page';
import { InboxPage } from '../pages/inbox/inbox-page';
import { MessagesPage } from '../pages/messages-page';
import { OnboardingPage } from '../pages/onboarding-page';
import { ForgotPasswordPage, ResetPasswordPage } from '../pages/password-reset-pages';
import { PipelinePage } from '../pages/pipeline/pipeline-page';
import { PlaygroundPage } from '../pages/playground-page';
import { ReportsPage } from '../pages/reports/reports-page';
import { SignInPage } from '../pages/sign-in-page';
import { SignUpPage } from '../pages/sign-up-page';
import { TeamPage } from '../pages/team/team-page';
import { TeamsPage } from '../pages/team/teams-page';
import { TemplatesPage } from '../pages/templates/templates-page';
import { UsagePage } from '../pages/usage-page';
import { WebhooksPage } from '../pages/webhooks-page';
import type { Permission } from '../session/permissions';

/** A signed-in page: where it lives, what the menu calls it, and what a member needs to use it. */
export interface PageEntry {
  path: string;
  /** The menu link's name (and the role notice's heading). */
  label: string;
  page: () => ReactNode;
  /** Also answers the paths below it (`/inbox/{id}`). */
  nested?: boolean;
  /** The permission the page's reads take; without it the menu leaves the page out and the page says why. */
  requires?: Permission;
  /** What the role notice says the page is for, when the permission's own words do not fit ("read the API's logs"). */
  work?: string;
}

const page = (entry: PageEntry) => entry;

export const PAGES = {
  start: page({ path: '/', label: 'Get started', page: () => <OnboardingPage /> }),
  inbox: page({ path: '/inbox', label: 'Inbox', page: () => <InboxPage />, nested: true }),
  contacts: page({ path: '/contacts', label: 'Contacts', page: () => <ContactsPage />, nested: true }),
  companies: page({ path: '/companies', label: 'Companies', page: () => <CompaniesPage /> }),
  pipeline: page({ path: '/pipeline', label: 'Pipeline', page: () => <PipelinePage /> }),
  campaigns: page({ path: '/campaigns', label: 'Campaigns', page: () => <CampaignsPage />, nested: true, requires: 'campaigns.manage' }),
  templates: page({ path: '/templates', label: 'Templates', page: () => <TemplatesPage />, requires: 'templates.manage' }),
  agents: page({ path: '/agents', label: 'AI agents', page: () => <AgentsPage />, requires: 'agents.manage' }),
  playground: page({ path: '/playground', label: 'Playground', page: () => <PlaygroundPage />, requires: 'messages.send' }),
  channels: page({ path: '/channels', label: 'Channels', page: () => <ChannelsPage />, requires: 'channels.manage' }),
  // every role: an `agent` member's report holds only the conversations assigned to them (the API scopes it)
  reports: page({ path: '/reports', label: 'Reports', page: () => <ReportsPage /> }),
  usage: page({ path: '/usage', label: 'Usage', page: () => <UsagePage />, requires: 'billing.manage' }),
  team: page({ path: '/team', label: 'Team', page: () => <TeamPage />, requires: 'team.manage' }),
  teams: page({ path: '/teams', label: 'Teams', page: () => <TeamsPage />, requires: 'team.manage', work: 'manage teams, their hours and routing' }),
  billing: page({ path: '/billing', label: 'Billing', page: () => <BillingPage />, requires: 'billing.manage' }),
  webhooks: page({ path: '/webhooks', label: 'Webhooks', page: () => <WebhooksPage />, requires: 'webhooks.manage' }),
  apiKeys: page({ path: '/api-keys', label: 'API keys', page: () => <ApiKeysPage />, requires: 'credentials.manage' }),
  messages: page({ path: '/messages', label: 'Messages', page: () => <MessagesPage />, requires: 'credentials.manage', work: "read the API's message log" }),
  conversations: page({ path: '/conversations', label: 'Conversations', page: () => <ConversationsPage />, requires: 'credentials.manage', work: "read the API's conversation log" }),
} satisfies Record<string, PageEntry>;

/**
 * The menu, grouped as a business owner looks for things (the way Chatwoot, respond.io and Intercom group them): a
 * section is a page with the pages that belong to it below (Contacts: companies, pipeline), or only a title over them
 * (Reports, Settings). Developers' tools (webhooks, keys, the API's message and conversation logs) sit under Settings.
 */
export interface MenuNode {
  /** The section's own page; without one the section is only a title. */
  page?: PageEntry;
  title?: string;
  children?: MenuNode[];
}

export const MENU: MenuNode[] = [
  { page: PAGES.start },
  { page: PAGES.inbox },
  { page: PAGES.contacts, children: [{ page: PAGES.companies }, { page: PAGES.pipeline }] },
  { page: PAGES.campaigns, children: [{ page: PAGES.templates }] },
  { page: PAGES.agents, children: [{ page: PAGES.playground }] },
  { page: PAGES.channels },
  { title: 'Reports', children: [{ page: PAGES.reports }, { page: PAGES.usage }] },
  {
    title: 'Settings',
    children: [
      { page: PAGES.team },
      { page: PAGES.teams },
      { page: PAGES.billing },
      { title: 'Developers', children: [{ page: PAGES.webhooks }, { page: PAGES.apiKeys }, { page: PAGES.messages }, { page: PAGES.conversations }] },
    ],
  },
];

/** The pages without a session. `leave`: a signed-in visitor goes on to the dashboard; `stay`: a link from an email opens whoever is signed in. */
export interface PublicPageEntry {
  path: string;
  page: () => ReactNode;
  signedIn: 'leave' | 'stay';
}

export const PUBLIC_PAGES: PublicPageEntry[] = [
  { path: '/sign-in', page: () => <SignInPage />, signedIn: 'leave' },
  { path: '/sign-up', page: () => <SignUpPage />, signedIn: 'leave' },
  { path: '/forgot-password', page: () => <ForgotPasswordPage />, signedIn: 'leave' },
  { path: '/reset-password', page: () => <ResetPasswordPage />, signedIn: 'stay' },
  { path: '/accept-invite', page: () => <AcceptInvitePage />, signedIn: 'stay' },
];
