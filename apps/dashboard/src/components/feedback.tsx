import type { ReactNode } from 'react';
import type { AsyncState } from './live-query';

export function ErrorNotice({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p className="notice notice-error" role="alert">
      {error}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/**
 * The states of anything loaded: loading, failed (with the server's `detail`), empty, and the data itself, said to be
 * updating while it is an earlier search's or page's until the new answer comes.
 */
export function AsyncView<T>({
  state,
  what,
  isEmpty,
  empty,
  children,
}: {
  state: AsyncState<T>;
  what: string;
  isEmpty?: (data: T) => boolean;
  /** What an empty answer says; a function of the answer when it depends on what was asked (a filter's value). */
  empty?: ReactNode | ((data: T) => ReactNode);
  children: (data: T) => ReactNode;
}) {
  if (state.data === undefined) {
    return state.error ? <ErrorNotice error={state.error} /> : <Loading what={what} />;
  }
  return (
    <>
      <ErrorNotice error={state.error} />
      {state.updating && (
        <p className="muted" role="status" aria-live="polite">
          Updating {what}…
        </p>
      )}
      {isEmpty?.(state.data) ? <Empty>{typeof empty === 'function' ? empty(state.data) : empty}</Empty> : children(state.data)}
    </>
  );
}
