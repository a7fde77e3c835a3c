import { BFF_PATHS, meSchema } from '@review-desk/shared/bff';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';

export function getMe(signal?: AbortSignal) {
  return getJson(BFF_PATHS.me, meSchema, signal);
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'me'] as const,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 5 * 60_000,
  });
}

export function useMe() {
  // The session is asked for at start, before the first render (main.tsx): an answer that failed
  // by then is shown (sign-in, or the error with "Try again"), not asked for a second time.
  return useQuery({ ...meQueryOptions(), retryOnMount: false });
}
