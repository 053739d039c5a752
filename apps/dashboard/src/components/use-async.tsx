import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../api';
import { fieldSentence } from './problem-text';
import { useLiveEvents, type LiveEvent } from '../session/live-events';

export interface AsyncState<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Live views refresh when the event stream says something they show changed. Only when the stream is down do they poll,
 * slowly, and only while someone uses the page (and the tab is visible): every refresh is a request that counts against
 * the tenant's daily quota, so a tab left open must not spend it.
 */
const LIVE_AFTER_ACTIVITY_MS = 2 * 60_000;
const FALLBACK_POLL_MS = 30_000;
let lastActivity = Date.now();
for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const) {
  window.addEventListener(type, () => (lastActivity = Date.now()), { capture: true, passive: true });
}

/** Which stream events make a live view refresh. */
export interface LiveRefresh {
  /** Event types (`message.status`, …) that change what the view shows. */
  events: readonly string[];
  /** Only events that concern this view (e.g. one conversation's customer). */
  filter?: (event: LiveEvent) => boolean;
  /**
   * Refreshes after a relevant event, in ms after it (a burst of events shares them). The default refreshes once,
   * shortly after; views of effects that follow an event (a webhook delivery and its attempts) look again later.
   */
  delaysMs?: readonly number[];
}

/** What the user should read about a failure: the problem+json `detail` and a sentence per broken field, or the error's message. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const fields = err.fieldErrors.map((e) => fieldSentence(e.field, e.message));
    return fields.length ? `${err.message} ${fields.join(' ')}` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Loads `load()` when `key` changes, and again quietly (keeping the shown data and its place) when `live` says so.
 * Late answers of an older load are dropped.
 */
export function useAsync<T>(load: () => Promise<T>, key: string, live?: LiveRefresh): AsyncState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const run = useCallback((quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setLoading(true);
    loadRef.current().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (err: unknown) => {
        if (mine !== generation.current) return;
        setError(errorText(err));
        setLoading(false);
      },
    );
  }, []);

  useEffect(() => {
    setData(undefined);
    run(false);
  }, [key, run]);

  const reload = useCallback(() => run(true), [run]);
  useLiveRefresh(live, reload);
  return { data, error, loading, reload };
}

/** Calls `reload` after the stream's relevant events and when the stream (re)opens, and polls slowly while it is down. */
function useLiveRefresh(live: LiveRefresh | undefined, reload: () => void): void {
  const { state, subscribe } = useLiveEvents();
  const liveRef = useRef(live);
  liveRef.current = live;
  const enabled = live !== undefined;

  useEffect(() => {
    if (!enabled) return undefined;
    const pending = new Map<number, number>();
    const unsubscribe = subscribe((event) => {
      const current = liveRef.current;
      if (!current?.events.includes(event.type) || (current.filter && !current.filter(event))) return;
      for (const delay of current.delaysMs ?? [250]) {
        if (pending.has(delay)) continue; // already scheduled by an earlier event of the burst
        pending.set(
          delay,
          window.setTimeout(() => {
            pending.delete(delay);
            reload();
          }, delay),
        );
      }
    });
    return () => {
      unsubscribe();
      for (const timer of pending.values()) window.clearTimeout(timer);
    };
  }, [enabled, subscribe, reload]);

  // Whatever happened while the stream was not open was not heard: refresh once it is.
  const previous = useRef(state);
  useEffect(() => {
    if (!enabled) return undefined;
    if (state === 'open' && previous.current !== 'open') reload();
    previous.current = state;
    if (state !== 'down') return undefined;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible' && Date.now() - lastActivity < LIVE_AFTER_ACTIVITY_MS) reload();
    }, FALLBACK_POLL_MS);
    return () => window.clearInterval(timer);
  }, [enabled, state, reload]);
}

interface ActionFailure {
  /** The problem's `detail` (or the error's message). */
  detail: string;
  /** Field path (`to`, `faqs[0].question`) → the sentence for people; removed once the person edits that field. */
  fields: Record<string, string>;
}

/** The id of the element saying what is wrong with a field (for `aria-describedby`). */
const fieldErrorId = (scope: string, field: string) => `${scope}-error-${field.replace(/[^\w-]/g, '-')}`;

/**
 * Runs one user action at a time (a form submit, a button), exposing its pending state and error. A refused request's
 * field errors are tied to their inputs: spread `bind('to')` on the input (`aria-invalid`, `aria-describedby`, and
 * editing it clears its error) and render `fieldError('to')` below it.
 */
export function useAction() {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ActionFailure>();
  const scope = useRef(`action-${Math.random().toString(36).slice(2, 8)}`).current;
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setPending(true);
    setFailure(undefined);
    try {
      return await action();
    } catch (err) {
      const fields = err instanceof ApiError ? Object.fromEntries(err.fieldErrors.map((e) => [e.field, fieldSentence(e.field, e.message)])) : {};
      setFailure({ detail: err instanceof ApiError ? err.message : errorText(err), fields });
      return undefined;
    } finally {
      setPending(false);
    }
  }, []);
  const clearField = useCallback(
    (field: string) =>
      setFailure((f) => {
        if (!f?.fields[field]) return f;
        const fields = { ...f.fields };
        delete fields[field];
        // The problem was only about fields, and each has been corrected: nothing left to say.
        return Object.keys(fields).length === 0 ? undefined : { ...f, fields };
      }),
    [],
  );
  const error = useMemo(() => (failure ? [failure.detail, ...Object.values(failure.fields)].join(' ') : undefined), [failure]);
  const bind = (field: string) => {
    const invalid = Boolean(failure?.fields[field]);
    return {
      'aria-invalid': invalid || undefined,
      'aria-describedby': invalid ? fieldErrorId(scope, field) : undefined,
      onInput: () => clearField(field),
    };
  };
  const fieldError = (field: string) => {
    const sentence = failure?.fields[field];
    return sentence ? (
      <span className="field-error" id={fieldErrorId(scope, field)}>
        {sentence}
      </span>
    ) : null;
  };
  return { pending, error, run, bind, fieldError, clearError: () => setFailure(undefined) };
}
