import { useRouter as useTanStackRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useMemo, type MouseEvent, type ReactNode } from 'react';

/** Every page lives under the gateway's /dashboard path; the gateway answers index.html for any of them. */
export const BASE_PATH = '/dashboard';

interface RouterValue {
  /** The page's path inside the dashboard (`/inbox/cnv_…`), without BASE_PATH or the query. */
  path: string;
  /** Opens a path inside the dashboard (`/campaigns/cmp_…`, a query allowed), as a new history entry. */
  navigate(path: string): void;
}

/**
 * The pages' view of TanStack Router (routes.tsx declares the routes): the current path and a way to go elsewhere.
 * Kept this small so a page does not depend on the router's API.
 */
export function useRouter(): RouterValue {
  const router = useTanStackRouter();
  const path = useRouterState({ select: (state) => state.location.pathname });
  const navigate = useCallback(
    (next: string) => {
      void router.navigate({ href: next }).then(() => window.scrollTo(0, 0));
    },
    [router],
  );
  return useMemo(() => ({ path: path === '' ? '/' : path, navigate }), [path, navigate]);
}

/**
 * An in-app link: a real `<a href>` (keyboard, middle-click) that navigates without a reload. It is the current page
 * when its path is the page's or a parent of it (`/inbox` while `/inbox/{id}` is open), or when `current` says so.
 */
export function Link({
  to,
  children,
  className,
  current,
  onNavigate,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  current?: boolean;
  /** Called after a click navigated (the phone's menu closes itself). */
  onNavigate?: () => void;
}) {
  const { path, navigate } = useRouter();
  const isCurrent = current ?? (path === to || (to !== '/' && path.startsWith(`${to}/`)));
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
    onNavigate?.();
  };
  return (
    <a href={`${BASE_PATH}${to}`} onClick={onClick} className={className} aria-current={isCurrent ? 'page' : undefined}>
      {children}
    </a>
  );
}
