import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { MemberRole } from './api';
import { AcceptInvitePage } from './pages/accept-invite-page';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/password-reset-pages';
import { InboxPage } from './pages/inbox/inbox-page';
import { TeamPage } from './pages/team/team-page';
import { TemplatesPage } from './pages/templates/templates-page';
import { CampaignsPage } from './pages/campaigns/campaigns-page';
import { CompaniesPage } from './pages/companies/companies-page';
import { ContactsPage } from './pages/contacts/contacts-page';
import { PipelinePage } from './pages/pipeline/pipeline-page';
import { BillingPage } from './pages/billing/billing-page';
import { LowBalanceBanner } from './pages/billing/low-balance-banner';
import { RoleNotice } from './components/role-notice';
import { AgentsPage } from './pages/agents-page';
import { ApiKeysPage } from './pages/api-keys-page';
import { ChannelsPage } from './pages/channels-page';
import { ConversationsPage } from './pages/conversations-page';
import { MessagesPage } from './pages/messages-page';
import { OnboardingPage } from './pages/onboarding-page';
import { PlaygroundPage } from './pages/playground-page';
import { SignInPage } from './pages/sign-in-page';
import { SignUpPage } from './pages/sign-up-page';
import { UsagePage } from './pages/usage-page';
import { WebhooksPage } from './pages/webhooks-page';
import { createQueryClient } from './query-client';
import { Link, Router, useRouter } from './router';
import { LiveEventsProvider } from './session/live-events';
import { SessionProvider, useSession } from './session/session';

interface PageEntry {
  path: string;
  label: string;
  page: () => ReactNode;
  /** Also answers the paths below it (`/inbox/{id}`). */
  nested?: boolean;
  /** What an `agent` member may not do here (the gateway answers 403): the page says so instead of failing. */
  notForAgents?: string;
  /** Left out of the menu for `agent` members. */
  hiddenFromAgents?: boolean;
}

/** The signed-in pages, in the order of the menu. */
const PAGES: PageEntry[] = [
  { path: '/', label: 'Get started', page: () => <OnboardingPage /> },
  { path: '/inbox', label: 'Inbox', page: () => <InboxPage />, nested: true },
  { path: '/channels', label: 'WhatsApp numbers', page: () => <ChannelsPage />, notForAgents: 'manage WhatsApp numbers' },
  { path: '/agents', label: 'Agents', page: () => <AgentsPage /> },
  { path: '/templates', label: 'Templates', page: () => <TemplatesPage /> },
  { path: '/campaigns', label: 'Campaigns', page: () => <CampaignsPage />, nested: true },
  { path: '/contacts', label: 'Contacts', page: () => <ContactsPage />, nested: true },
  { path: '/companies', label: 'Companies', page: () => <CompaniesPage /> },
  { path: '/pipeline', label: 'Pipeline', page: () => <PipelinePage /> },
  { path: '/messages', label: 'Messages', page: () => <MessagesPage /> },
  { path: '/conversations', label: 'Conversations', page: () => <ConversationsPage /> },
  { path: '/playground', label: 'Playground', page: () => <PlaygroundPage /> },
  { path: '/webhooks', label: 'Settings → Webhooks', page: () => <WebhooksPage />, notForAgents: 'manage webhooks' },
  { path: '/api-keys', label: 'API keys', page: () => <ApiKeysPage />, notForAgents: 'manage API keys' },
  { path: '/team', label: 'Team', page: () => <TeamPage />, notForAgents: 'manage the team', hiddenFromAgents: true },
  { path: '/usage', label: 'Usage', page: () => <UsagePage /> },
  { path: '/billing', label: 'Billing', page: () => <BillingPage />, notForAgents: 'manage billing', hiddenFromAgents: true },
];

/**
 * The pages without a session. A signed-in visitor of sign-in or sign-up goes on to the dashboard; the links from an
 * email (an invite, a password reset: their token is in the query) open whoever is signed in.
 */
const PUBLIC_PAGES = new Map<string, { page: () => ReactNode; signedIn: 'leave' | 'stay' }>([
  ['/sign-in', { page: () => <SignInPage />, signedIn: 'leave' }],
  ['/sign-up', { page: () => <SignUpPage />, signedIn: 'leave' }],
  ['/forgot-password', { page: () => <ForgotPasswordPage />, signedIn: 'leave' }],
  ['/reset-password', { page: () => <ResetPasswordPage />, signedIn: 'stay' }],
  ['/accept-invite', { page: () => <AcceptInvitePage />, signedIn: 'stay' }],
]);

function findPage(path: string): PageEntry | undefined {
  return PAGES.find((p) => p.path === path || (p.nested && path.startsWith(`${p.path}/`)));
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Router>
        <SessionProvider>
          <LiveEventsProvider>
            <Shell />
          </LiveEventsProvider>
        </SessionProvider>
      </Router>
    </QueryClientProvider>
  );
}

function Shell() {
  const { session, status, member } = useSession();
  const { path, navigate } = useRouter();
  const publicPage = PUBLIC_PAGES.get(path);
  // The page asked for while signed out (a deep link, a reload after the session ended): opened once signed in.
  const afterSignIn = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (status === 'checking') return;
    if (!session && !publicPage) {
      if (path !== '/') afterSignIn.current = path;
      navigate('/sign-in');
    }
    if (session && publicPage?.signedIn === 'leave') {
      navigate(afterSignIn.current ?? '/');
      afterSignIn.current = undefined;
    }
  }, [session, status, path, publicPage, navigate]);

  const current = findPage(path);
  let content: ReactNode;
  if (status === 'checking') content = <p className="muted" role="status">Loading…</p>;
  else if (publicPage && (!session || publicPage.signedIn === 'stay')) content = publicPage.page();
  else if (!session) content = <SignInPage />;
  else if (!current) content = <NotFound />;
  else if (member?.role === 'agent' && current.notForAgents) content = <RoleNotice what={current.notForAgents} title={current.label} />;
  else content = current.page();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">Parley</span>
        {session && <SignedInBar />}
      </header>
      {session && <Navigation role={member?.role} />}
      <main id="main" tabIndex={-1}>
        {session && member?.role !== 'agent' && path !== '/billing' && <LowBalanceBanner />}
        {content}
      </main>
    </>
  );
}

function SignedInBar() {
  const { session, signOut } = useSession();
  const { navigate } = useRouter();
  // Signing out on purpose goes to sign-in directly: the page left is not a deep link to return to after the next sign-in.
  const signOutHere = () => {
    navigate('/sign-in');
    signOut('You signed out.');
  };
  return (
    <div className="row">
      <span className="small">
        {session?.kind === 'member' ? `${session.member.name} (${session.member.role})` : `signed in with ${session?.via}`}
      </span>
      <button type="button" className="secondary button-small" onClick={signOutHere}>
        Sign out
      </button>
    </div>
  );
}

function Navigation({ role }: { role: MemberRole | undefined }) {
  return (
    <nav aria-label="Dashboard">
      <ul>
        {PAGES.filter((p) => !(role === 'agent' && p.hiddenFromAgents)).map((p) => (
          <li key={p.path}>
            <Link to={p.path}>{p.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the start</Link>
      </p>
    </section>
  );
}
