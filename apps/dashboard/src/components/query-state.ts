import type { UseQueryResult } from '@tanstack/react-query';
import { errorText, type AsyncState } from './use-async';

/**
 * A TanStack Query result as the state `AsyncView` shows (loading, the error in words for people, the data), with
 * `reload` refetching it: a page moved to `useQuery` keeps its views. Every view of the same key updates with it.
 */
export function queryState<T>(query: UseQueryResult<T>): AsyncState<T> {
  return {
    data: query.data,
    error: query.error ? errorText(query.error) : undefined,
    loading: query.isPending,
    reload: () => void query.refetch(),
  };
}
