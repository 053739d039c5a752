import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLiveEvents } from '../session/live-events';
import { errorText, type AsyncState, type LiveRefresh } from './use-async';

/** A burst of events (an import of 500 contacts) makes one refetch, this long after its first event. */
const LIVE_DELAY_MS = 250;

/**
 * Reads through the query cache (TanStack Query) and keeps it live: the events `live` names invalidate `key` (and every
 * key under it), as does the stream reopening (what happened meanwhile was not heard). Answers the `AsyncState` the
 * pages' `AsyncView` shows, so a page moves to the cache without changing how it renders.
 */
export function useLiveQuery<T>(key: QueryKey, load: () => Promise<T>, live?: LiveRefresh): AsyncState<T> {
  const query = useQuery({ queryKey: key, queryFn: load, placeholderData: (previous) => previous });
  useLiveInvalidation(key, live);
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    data: query.data,
    error: query.error ? errorText(query.error) : undefined,
    loading: query.isFetching && query.data === undefined,
    reload,
  };
}

/** Invalidates `key` after the stream's relevant events (at `live.delaysMs` after them) and when the stream (re)opens. */
export function useLiveInvalidation(key: QueryKey, live: LiveRefresh | undefined): void {
  const client = useQueryClient();
  const { state, subscribe } = useLiveEvents();
  const keyRef = useRef(key);
  keyRef.current = key;
  const liveRef = useRef(live);
  liveRef.current = live;
  const enabled = live !== undefined;

  useEffect(() => {
    if (!enabled) return undefined;
    const pending = new Map<number, number>();
    const unsubscribe = subscribe((event) => {
      const current = liveRef.current;
      if (!current?.events.includes(event.type) || (current.filter && !current.filter(event))) return;
      for (const delay of current.delaysMs ?? [LIVE_DELAY_MS]) {
        if (pending.has(delay)) continue; // already scheduled by an earlier event of the burst
        pending.set(
          delay,
          window.setTimeout(() => {
            pending.delete(delay);
            void client.invalidateQueries({ queryKey: keyRef.current });
          }, delay),
        );
      }
    });
    return () => {
      unsubscribe();
      for (const timer of pending.values()) window.clearTimeout(timer);
    };
  }, [enabled, subscribe, client]);

  const previous = useRef(state);
  useEffect(() => {
    if (enabled && state === 'open' && previous.current !== 'open') void client.invalidateQueries({ queryKey: keyRef.current });
    previous.current = state;
  }, [enabled, state, client]);
}
