import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { App } from '../app';
import { CSRF_COOKIE } from '../api/http';
import { createQueryClient } from '../query-client';
import { LiveEventsProvider } from '../session/live-events';
import { SessionProvider } from '../session/session';

/** Typing without a pause between keys (the default waits a tick per key): the same events, a faster run. */
const typist = () => userEvent.setup({ delay: null });

/**
 * The whole dashboard (its data cache, session, event stream, router and shell) opened at `path` (`/contacts`), as a
 * browser opens a deep link: signed in as a team member (the session's readable CSRF cookie set; `GET /team/me`
 * answers who), or signed out.
 */
export function renderApp(path: string, { signedIn = true }: { signedIn?: boolean } = {}) {
  if (signedIn) document.cookie = `${CSRF_COOKIE}=test-csrf-token; path=/`;
  window.history.replaceState(null, '', `/dashboard${path}`);
  const user = typist();
  return { user, ...render(<App />) };
}

/**
 * One component in the dashboard's data cache and session (the same API client, signed out: no event stream), for a
 * part of a page that needs no router.
 */
export function renderComponent(ui: ReactNode) {
  const user = typist();
  return {
    user,
    ...render(
      <QueryClientProvider client={createQueryClient()}>
        <SessionProvider>
          <LiveEventsProvider>{ui}</LiveEventsProvider>
        </SessionProvider>
      </QueryClientProvider>,
    ),
  };
}

/** What an element's `aria-describedby` points at, as a screen reader reads it after the element's name. */
export function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? [];
  return ids
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
    .filter(Boolean)
    .join(' ');
}
