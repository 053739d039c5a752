import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError, createDashboardApi, createSessionClient, type DashboardApi } from '../api';
import { CSRF_COOKIE, readCookie } from '../api/http';
import type { SignedInMember } from './permissions';

/**
 * How the dashboard is signed in. A team member's session lives in the gateway's httpOnly cookie (it survives reloads
 * and reaches other tabs; the page never sees it); programs' credentials (an API key, a client-credentials token) can
 * still be used and are held in this component's memory only.
 */
export type SignedIn =
  | { kind: 'member'; member: SignedInMember; via: 'email and password' }
  | { kind: 'credential'; token: string; via: 'client credentials' | 'API key' };

/** `checking`: asking the gateway whether the browser holds a session cookie (the first moment after a load). */
export type SessionStatus = 'checking' | 'signed-in' | 'signed-out';

interface SessionValue {
  status: SessionStatus;
  session: SignedIn | undefined;
  /** The signed-in team member (with their role's permissions); undefined for a program credential. */
  member: SignedInMember | undefined;
  api: DashboardApi;
  /** Starts a member session (the gateway sets the cookie), then reads who it names. */
  signInWithPassword(email: string, password: string): Promise<void>;
  /** Keeps a program credential (API key or access token) for this tab. */
  signInWithCredential(session: Extract<SignedIn, { kind: 'credential' }>): void;
  signOut(reason?: string): void;
  /** Why the user was last signed out (e.g. the session expired), shown on the sign-in page. */
  signedOutBecause: string | undefined;
}

function hasSessionCookie(): boolean {
  return Boolean(readCookie(CSRF_COOKIE));
}

const SessionContext = createContext<SessionValue | undefined>(undefined);

const ENDED = 'Your session ended (it expired, or the key was revoked). Sign in again.';
/** Tabs of the same browser share the cookie: each tells the others when it signs in or out. */
const TABS_CHANNEL = 'parley-session';

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SignedIn>();
  const [status, setStatus] = useState<SessionStatus>('checking');
  const [signedOutBecause, setSignedOutBecause] = useState<string>();
  const current = useRef<SignedIn | undefined>(undefined);
  const tabsRef = useRef<BroadcastChannel | undefined>(undefined);

  const apply = useCallback((next: SignedIn | undefined, reason?: string) => {
    current.current = next;
    setSession(next);
    setStatus(next ? 'signed-in' : 'signed-out');
    setSignedOutBecause(next ? undefined : reason);
  }, []);

  const endedRef = useRef<() => void>(() => undefined);
  const api = useMemo(
    () =>
      createDashboardApi(
        createSessionClient(
          () => (current.current?.kind === 'credential' ? current.current.token : undefined),
          () => endedRef.current(),
          () => current.current?.kind === 'member',
        ),
      ),
    [],
  );
  endedRef.current = () => apply(undefined, ENDED);

  /**
   * Asks the gateway whom the session cookie names: signed in as them, or signed out. Without the readable CSRF cookie
   * (set and cleared with the httpOnly session cookie) there is no session to ask about: a signed-out page makes no
   * request that could only answer 401.
   */
  const resume = useCallback(async (): Promise<boolean> => {
    if (!hasSessionCookie()) {
      if (current.current?.kind !== 'credential') apply(undefined);
      return false;
    }
    try {
      const member = await api.me();
      apply({ kind: 'member', member, via: 'email and password' });
      return true;
    } catch (err) {
      const unreachable = err instanceof ApiError && err.status === 0;
      if (current.current?.kind !== 'credential') apply(undefined, unreachable ? err.message : undefined);
      return false;
    }
  }, [api, apply]);

  useEffect(() => {
    void resume();
  }, [resume]);

  useEffect(() => {
    if (!('BroadcastChannel' in window)) return undefined;
    const tabs = new BroadcastChannel(TABS_CHANNEL);
    tabs.onmessage = (event: MessageEvent<string>) => {
      if (event.data === 'signed-in' && current.current === undefined) void resume();
      if (event.data === 'signed-out' && current.current?.kind === 'member') apply(undefined, 'You signed out in another tab.');
    };
    tabsRef.current = tabs;
    return () => {
      tabsRef.current = undefined;
      tabs.close();
    };
  }, [resume, apply]);

  const signInWithPassword = useCallback(
    async (email: string, password: string) => {
      await api.login(email, password);
      apply({ kind: 'member', member: await api.me(), via: 'email and password' });
      tabsRef.current?.postMessage('signed-in');
    },
    [api, apply],
  );

  const signInWithCredential = useCallback((next: Extract<SignedIn, { kind: 'credential' }>) => apply(next), [apply]);

  const signOut = useCallback(
    (reason?: string) => {
      if (current.current?.kind === 'member') {
        // The cookie is httpOnly: only the gateway can end it. Signed out here whatever it answers.
        void api.logout().catch(() => undefined);
        tabsRef.current?.postMessage('signed-out');
      }
      apply(undefined, reason);
    },
    [api, apply],
  );

  const value = useMemo<SessionValue>(
    () => ({
      status,
      session,
      member: session?.kind === 'member' ? session.member : undefined,
      api,
      signInWithPassword,
      signInWithCredential,
      signOut,
      signedOutBecause,
    }),
    [status, session, api, signInWithPassword, signInWithCredential, signOut, signedOutBecause],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() outside <SessionProvider>');
  return value;
}

/** The API of the signed-in session. */
export function useApi(): DashboardApi {
  return useSession().api;
}

/** The signed-in team member (undefined when a program credential signed in). */
export function useMember(): SignedInMember | undefined {
  return useSession().member;
}
