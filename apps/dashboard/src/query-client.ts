import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/**
 * The dashboard's one data cache (TanStack Query). A page reads with `useQuery` under a key naming what it shows
 * (`['contacts', filter]`), and a change invalidates that key so every view of it reloads. A 4xx answer is the
 * answer (not found, forbidden, a rule broken): it is not retried; a network error or a 5xx is, twice.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
        // every request counts against the tenant's daily quota: views refresh on the event stream, not on focus
        refetchOnWindowFocus: false,
        staleTime: 5_000,
      },
      mutations: { retry: false },
    },
  });
}
