import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { EVENTS_STREAM_PATH, openEventStream, type StreamState } from '../api';
import { useSession } from './session';

/** A tenant event as the stream carries it: `data` is that event's webhook body (CONTRACT.md §5). */
export interface LiveEvent {
  id: string | undefined;
  type: string;
  data: Record<string, unknown>;
}

type Listener = (event: LiveEvent) => void;

interface LiveEventsValue {
  state: StreamState;
  subscribe(listener: Listener): () => void;
}

const LiveEventsContext = createContext<LiveEventsValue | undefined>(undefined);

/**
 * The session's one event stream (`GET /api/v1/events/stream`, one request however long it stays open), shared by every
 * live view of the tab. Open while signed in; a refused credential signs out, like a 401 of any other call.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const { session, signOut } = useSession();
  const [state, setState] = useState<StreamState>('connecting');
  const listeners = useRef(new Set<Listener>());
  // A member's stream rides on the session cookie (no token); a program credential's on its bearer token.
  const token = session?.kind === 'credential' ? session.token : undefined;
  const open = session !== undefined;

  useEffect(() => {
    if (!open) return undefined;
    return openEventStream({
      url: `${window.location.origin}${EVENTS_STREAM_PATH}`,
      token: () => token,
      onState: setState,
      onUnauthorized: () => signOut('Your session ended (it expired, or the key was revoked). Sign in again.'),
      onEvent: (event) => {
        let data: Record<string, unknown>;
        try {
          data = JSON.parse(event.data) as Record<string, unknown>;
        } catch {
          return;
        }
        for (const listener of listeners.current) listener({ id: event.id, type: event.event, data });
      },
    });
  }, [open, token, signOut]);

  const value = useMemo<LiveEventsValue>(
    () => ({
      state,
      subscribe: (listener) => {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [state],
  );
  return <LiveEventsContext.Provider value={value}>{children}</LiveEventsContext.Provider>;
}

export function useLiveEvents(): LiveEventsValue {
  const value = useContext(LiveEventsContext);
  if (!value) throw new Error('useLiveEvents() outside <LiveEventsProvider>');
  return value;
}
