import { keepPreviousData, useQuery, useQueryClient, type Query, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLiveEvents, type LiveEvent } from '../session/live-events';
import { errorText } from './problem-text';

/** What a page shows of something it reads: the data, the failure in words for people, and whether it is on its way. */
export interface AsyncState<T> {
  data: T | undefined;
  error: string | undefined;
  /** Nothing to show yet: the first answer is on its way. */
  loading: boolean;
  /** The data shown is an earlier answer (another search, the previous page) while the new one is on its way. */
  updating: boolean;
  /** Reads it again, keeping what is shown until the answer comes. */
  reload(): void;
}

/** Which stream events make a live view refresh. */
export interface LiveRefresh {
  /** Event types (`message.status`, …) that change what the view shows. */
  events: readonly string[];
  /** Only events that concern this view (e.g. one conversation's customer). */
  filter?: (event: LiveEvent) => boolean;
  /**
   * Refreshes after a relevant event, in ms after it (a burst of events shares them: an import of 500 contacts makes
   * one refetch). The default refreshes once, shortly after; views of effects that follow an event (a webhook delivery
   * and its attempts) look again later.
   */
  delaysMs?: readonly number[];
}

export interface LiveQueryOptions {
  /**
   * While a new key's answer is on its way, keep showing the previous key's data (with `updating` set) instead of
   * "Loading…": for a list being searched or paged, not for a different record.
   */
  keepPrevious?: boolean;
}

/** `useLiveQuery`'s options for one type of answer. */
export interface LiveQueryOptionsOf<T> extends LiveQueryOptions {
  /**
   * Reads again every so many ms while this says so (the answer so far → ms, or false to stop): for work the server
   * does in the background, followed until it is done (a test run, `queued` → `completed`).
   */
  pollWhile?: (data: T | undefined) => number | false;
}

const DEFAULT_DELAYS_MS = [250];

/**
 * Only when the stream is down do live views poll, slowly, and only while someone uses the page (and the tab is
 * visible): every refresh is a request that counts against the tenant's daily quota, so a tab left open must not
 * spend it.
 */
const LIVE_AFTER_ACTIVITY_MS = 2 * 60_000;
const FALLBACK_POLL_MS = 30_000;
let lastActivity = Date.now();
for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) {
  window.addEventListener(type, () => (lastActivity = Date.now()), { capture: true, passive: true });
}

/**
 * Reads through the dashboard's query cache (TanStack Query) under `key`, so every view of the same key shows the same
 * answer and a change invalidates them together, and keeps it live: the events `live` names invalidate `key` (and every
 * key under it).
 */
export function useLiveQuery<T>(key: QueryKey, load: () => Promise<T>, live?: LiveRefresh, options: LiveQueryOptionsOf<T> = {}): AsyncState<T> {
  // A page opened shows what is true now: it reads again on arrival, whatever the cache holds from an earlier visit
  // (shown meanwhile), as the events it missed while closed were not heard.
  const { pollWhile } = options;
  const query = useQuery({
    queryKey: key,
    queryFn: load,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    refetchOnMount: 'always',
    refetchInterval: pollWhile && ((q: Query<T, Error, T, QueryKey>) => pollWhile(q.state.data)),
  });
  useLiveInvalidation(key, live);
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    data: query.data,
    error: query.error ? errorText(query.error) : undefined,
    loading: query.data === undefined && query.isFetching,
    updating: query.isPlaceholderData,
    reload,
  };
}

/**
 * Invalidates `key` after the stream's relevant events (at `live.delaysMs` after them) and when the stream (re)opens,
 * since whatever happened while it was closed was not heard; while it is down, every 30 s of a page in use.
 */
export function useLiveInvalidation(key: QueryKey, live: LiveRefresh | undefined): void {
  const client = useQueryClient();
  const { state, subscribe } = useLiveEvents();
  const keyRef = useRef(key);
  keyRef.current = key;
  const liveRef = useRef(live);
  liveRef.current = live;
  const enabled = live !== undefined;
  const invalidate = useCallback(() => void client.invalidateQueries({ queryKey: keyRef.current }), [client]);

  useEffect(() => {
    if (!enabled) return undefined;
    const pending = new Map<number, number>();
    const unsubscribe = subscribe((event) => {
      const current = liveRef.current;
      if (!current?.events.includes(event.type) || (current.filter && !current.filter(event))) return;
      for (const delay of current.delaysMs ?? DEFAULT_DELAYS_MS) {
        if (pending.has(delay)) continue; // already scheduled by an earlier event of the burst
        pending.set(
          delay,
          window.setTimeout(() => {
            pending.delete(delay);
            invalidate();
          }, delay),
        );
      }
    });
    return () => {
      unsubscribe();
      for (const timer of pending.values()) window.clearTimeout(timer);
    };
  }, [enabled, subscribe, invalidate]);

  const previous = useRef(state);
  useEffect(() => {
    if (!enabled) return undefined;
    if (state === 'open' && previous.current !== 'open') invalidate();
    previous.current = state;
    if (state !== 'down') return undefined;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && Date.now() - lastActivity < LIVE_AFTER_ACTIVITY_MS) invalidate();
    }, FALLBACK_POLL_MS);
    return () => window.clearInterval(timer);
  }, [enabled, state, invalidate]);
}
