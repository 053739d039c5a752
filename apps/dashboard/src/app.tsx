import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { createQueryClient } from './query-client';
import { LiveEventsProvider } from './session/live-events';
import { SessionProvider } from './session/session';
import { createDashboardRouter } from './shell/routes';

/** The dashboard: one data cache (TanStack Query), the session, the event stream, and the pages (TanStack Router). */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createDashboardRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <LiveEventsProvider>
          <RouterProvider router={router} />
        </LiveEventsProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
