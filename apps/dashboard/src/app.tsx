import { useEffect, type ReactNode } from 'react';
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
import { Link, Router, useRouter } from './router';
import { LiveEventsProvider } from './session/live-events';
import { SessionProvider, useSession } from './session/session';

/** The signed-in pages, in the order of the menu. */
const PAGES: { path: string; label: string; page: () => ReactNode }[] = [
  { path: '/', label: 'Get started', page: () => <OnboardingPage /> },
  { path: '/channels', label: 'WhatsApp numbers', page: () => <ChannelsPage /> },
  { path: '/agents', label: 'Agents', page: () => <AgentsPage /> },
  { path: '/messages', label: 'Messages', page: () => <MessagesPage /> },
  { path: '/conversations', label: 'Conversations', page: () => <ConversationsPage /> },
  { path: '/playground', label: 'Playground', page: () => <PlaygroundPage /> },
  { path: '/webhooks', label: 'Settings → Webhooks', page: () => <WebhooksPage /> },
  { path: '/api-keys', label: 'API keys', page: () => <ApiKeysPage /> },
  { path: '/usage', label: 'Usage', page: () => <UsagePage /> },
];

export function App() {
  return (
    <Router>
      <SessionProvider>
        <LiveEventsProvider>
          <Shell />
        </LiveEventsProvider>
      </SessionProvider>
    </Router>
  );
}

function Shell() {
  const { session } = useSession();
  const { path, navigate } = useRouter();
  const signedOutPath = path === '/sign-up' ? '/sign-up' : '/sign-in';
  // Signed out: only sign-in and sign-up exist; signed in, those two lead home.
  useEffect(() => {
    if (!session && path !== signedOutPath) navigate(signedOutPath);
    if (session && (path === '/sign-in' || path === '/sign-up')) navigate('/');
  }, [session, path, signedOutPath, navigate]);

  const current = PAGES.find((p) => p.path === path);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">Parley</span>
        {session && <SignedInBar />}
      </header>
      {session && <Navigation />}
      <main id="main" tabIndex={-1}>
        {!session ? path === '/sign-up' ? <SignUpPage /> : <SignInPage /> : current ? current.page() : <NotFound />}
      </main>
    </>
  );
}

function SignedInBar() {
  const { session, signOut } = useSession();
  return (
    <div className="row">
      <span className="muted small">signed in with {session?.via}</span>
      <button type="button" className="secondary button-small" onClick={() => signOut('You signed out.')}>
        Sign out
      </button>
    </div>
  );
}

function Navigation() {
  return (
    <nav aria-label="Dashboard">
      <ul>
        {PAGES.map((p) => (
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
