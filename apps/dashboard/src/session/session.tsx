import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { createDashboardApi, createSessionClient, type DashboardApi } from '../api';

export interface SignedIn {
  /** Bearer credential: an access token (client credentials) or an API key. Held in memory only. */
  token: string;
  /** How the user signed in, shown in the header. */
  via: 'client credentials' | 'API key';
}

interface SessionValue {
  session: SignedIn | undefined;
  api: DashboardApi;
  signIn(session: SignedIn): void;
  signOut(reason?: string): void;
  /** Why the user was last signed out (e.g. the token expired), shown on the sign-in page. */
  signedOutBecause: string | undefined;
}

const SessionContext = createContext<SessionValue | undefined>(undefined);

/**
 * The signed-in state. The credential lives in this component's memory, never in localStorage or a cookie, so a
 * reload or a closed tab signs out; a 401 from the API (expired token, revoked key) signs out too.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SignedIn>();
  const [signedOutBecause, setSignedOutBecause] = useState<string>();
  const tokenRef = useRef<string | undefined>(undefined);

  const signOut = useCallback((reason?: string) => {
    tokenRef.current = undefined;
    setSession(undefined);
    setSignedOutBecause(reason);
  }, []);

  const signIn = useCallback((next: SignedIn) => {
    tokenRef.current = next.token;
    setSignedOutBecause(undefined);
    setSession(next);
  }, []);

  const api = useMemo(
    () => createDashboardApi(createSessionClient(() => tokenRef.current, () => signOut('Your session ended (the token expired or the key was revoked). Sign in again.'))),
    [signOut],
  );

  const value = useMemo(() => ({ session, api, signIn, signOut, signedOutBecause }), [session, api, signIn, signOut, signedOutBecause]);
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
