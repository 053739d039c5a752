import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { RoleNotice } from '../components/role-notice';
import { BASE_PATH } from '../router';
import { PERMISSION_WORK, useCan } from '../session/permissions';
import { PAGES, PUBLIC_PAGES, type PageEntry } from './pages';
import { NotFound, Shell } from './shell';

/** A signed-in page, or what the member's role cannot use said plainly (the gateway would answer 403). */
function GuardedPage({ entry }: { entry: PageEntry }) {
  const can = useCan();
  if (entry.requires && !can(entry.requires)) return <RoleNotice what={entry.work ?? PERMISSION_WORK[entry.requires]} title={entry.label} />;
  return <>{entry.page()}</>;
}

const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });

const pageRoutes = Object.values(PAGES).flatMap((entry: PageEntry) => {
  const component = () => <GuardedPage entry={entry} />;
  const own = createRoute({ getParentRoute: () => rootRoute, path: entry.path, component });
  // `/inbox/{id}`, `/contacts/{id}`: the page reads the rest of the path itself
  const below = entry.nested ? [createRoute({ getParentRoute: () => rootRoute, path: `${entry.path}/$`, component })] : [];
  return [own, ...below];
});

const publicRoutes = PUBLIC_PAGES.map((entry) => createRoute({ getParentRoute: () => rootRoute, path: entry.path, component: entry.page }));

const routeTree = rootRoute.addChildren([...pageRoutes, ...publicRoutes]);

/**
 * The dashboard's routes under BASE_PATH (deep links and the back button through the history API; the gateway answers
 * index.html for any of them). The shell decides what a signed-out visitor sees; an unknown path is "Page not found".
 */
export function createDashboardRouter() {
  return createRouter({ routeTree, basepath: BASE_PATH, scrollRestoration: false, defaultPreload: false });
}
