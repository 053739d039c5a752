import { createContext, useCallback, useContext, useEffect, useState, type MouseEvent, type ReactNode } from 'react';

/** Every page lives under the gateway's /dashboard path; the gateway answers index.html for any of them. */
export const BASE_PATH = '/dashboard';

interface RouterValue {
  path: string;
  navigate(path: string): void;
}

const RouterContext = createContext<RouterValue>({ path: '/', navigate: () => undefined });

function currentPath(): string {
  const path = window.location.pathname.slice(BASE_PATH.length);
  return path === '' ? '/' : path;
}

/** A minimal history-API router: the dashboard has a dozen flat pages, no nested routes. */
export function Router({ children }: { children: ReactNode }) {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((next: string) => {
    window.history.pushState(null, '', `${BASE_PATH}${next}`);
    setPath(next);
    window.scrollTo(0, 0);
  }, []);
  return <RouterContext.Provider value={{ path, navigate }}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  return useContext(RouterContext);
}

/**
 * An in-app link: a real `<a href>` (keyboard, middle-click) that navigates without a reload. It is the current page
 * when its path is the page's or a parent of it (`/inbox` while `/inbox/{id}` is open), or when `current` says so.
 */
export function Link({ to, children, className, current }: { to: string; children: ReactNode; className?: string; current?: boolean }) {
  const { path, navigate } = useRouter();
  const isCurrent = current ?? (path === to || (to !== '/' && path.startsWith(`${to}/`)));
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={`${BASE_PATH}${to}`} onClick={onClick} className={className} aria-current={isCurrent ? 'page' : undefined}>
      {children}
    </a>
  );
}
