import { BFF_PATHS } from '@review-desk/shared/bff';
import { locationListSchema } from '@review-desk/shared/locations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './http.ts';

// GET /bff/locations: the signed-in user's locations, slug and name; the first is where an
// address without a location goes.

export function getLocations(signal?: AbortSignal) {
  return getJson(BFF_PATHS.locations, locationListSchema, signal);
}

export function locationsQueryOptions() {
  return queryOptions({
    queryKey: ['locations'] as const,
    queryFn: ({ signal }) => getLocations(signal),
    staleTime: 5 * 60_000,
  });
}

export function useLocations() {
  return useQuery(locationsQueryOptions());
}
