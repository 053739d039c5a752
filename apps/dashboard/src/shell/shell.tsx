import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { PageHeader } from '../components/page-header';
import { LowBalanceBanner } from '../pages/billing/low-balance-banner';
import { SignInPage } from '../pages/sign-in-page';
import { Link, useRouter } from '../router';
import { useCan } from '../session/permissions';
import { useSession } from '../session/session';
import { Navigation, useMenuToggle } from './navigation';
import { PUBLIC_PAGES } from './pages';
import { PresenceSwitch } from './presence-switch';

/**
 * Every page's frame: the top bar, the menu (a sidebar on a wide screen, behind a Menu button on a phone) and the page.
 * Signed out, only the public pages open: any other path goes to sign-in and is opened again once signed in.
 */
export function Shell() {
  const { session, status } = useSession();
  const { path, navigate } = useRouter();
  const can = useCan();
  const queryClient = useQueryClient();
  const menu = useMenuToggle();
  const publicPage = PUBLIC_PAGES.find((p) => p.path === path);
  // The page asked for while signed out (a deep link, a reload after the session ended): opened once signed in.
  const afterSignIn = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (status === 'checking') return;
    if (!session && !publicPage) {
      if (path !== '/') afterSignIn.current = `${path}${window.location.search}`;
      navigate('/sign-in');
    }
    if (session && publicPage?.signedIn === 'leave') {
      navigate(afterSignIn.current ?? '/');
      afterSignIn.current = undefined;
    }
  }, [session, status, path, publicPage, navigate]);
  // What one member saw is not shown to the next one signing in on this browser.
  useEffect(() => {
    if (status === 'signed-out') queryClient.clear();
  }, [status, queryClient]);

  const signedIn = session !== undefined;
  let content;
  if (status === 'checking') content = <p className="muted" role="status">Loading…</p>;
  else if (publicPage && (!signedIn || publicPage.signedIn === 'stay')) content = <Outlet />;
  else if (!signedIn) content = <SignInPage />;
  else content = <Outlet />;
  return (
    <div className={`app${signedIn ? ' app-signed-in' : ''}${menu.open ? ' menu-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        {signedIn && (
          <button type="button" className="menu-button" aria-expanded={menu.open} aria-controls="dashboard-menu" onClick={menu.toggle}>
            <span aria-hidden="true">☰</span> Menu
          </button>
        )}
        <span className="brand">Parley</span>
        {signedIn && <SignedInBar />}
      </header>
      {signedIn && <Navigation onNavigate={menu.close} />}
      <main id="main" tabIndex={-1}>
        {signedIn && can('billing.manage') && path !== '/billing' && <LowBalanceBanner />}
        {content}
      </main>
    </div>
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
    <div className="signed-in">
      {session?.kind === 'member' && <PresenceSwitch memberId={session.member.id} />}
      <span className="small who">
        {session?.kind === 'member' ? `${session.member.name} (${session.member.role})` : `signed in with ${session?.via}`}
      </span>
      <button type="button" className="secondary button-small" onClick={signOutHere}>
        Sign out
      </button>
    </div>
  );
}

export function NotFound() {
  return (
    <section>
      <PageHeader title="Page not found">There is no page at this address.</PageHeader>
      <p>
        <Link to="/">Back to the start</Link>
      </p>
    </section>
  );
}
