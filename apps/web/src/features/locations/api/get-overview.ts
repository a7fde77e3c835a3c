import { analyticsQuerySchema, analyticsSearchParams } from '@review-desk/shared/analytics';
import { BFF_PATHS } from '@review-desk/shared/bff';
import { DAYS_DEFAULT } from '@review-desk/shared/limits';
import { overviewRowsSchema } from '@review-desk/shared/location-overview';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson, withQuery } from '../../../lib/http.ts';

// GET /bff/overview?days=N: one row per location for the window. The BFF fans out to the
// locations' upstreams (in parallel, with a bound) and puts a failing location's error in its row.

/** The window an address asks for (`?days=`), or the default when it names none or a bad one. */
export function overviewDays(search: URLSearchParams): number {
  const parsed = analyticsQuerySchema.safeParse({ days: search.get('days') ?? String(DAYS_DEFAULT) });
  return parsed.success ? parsed.data.days : DAYS_DEFAULT;
}

export async function getOverview(days: number, signal?: AbortSignal) {
  return (
    await getJson(withQuery(BFF_PATHS.overview, analyticsSearchParams({ days })), overviewRowsSchema, signal)
  ).rows;
}

export function overviewQueryOptions(days: number) {
  return queryOptions({
    queryKey: ['locations', 'overview', { days }] as const,
    queryFn: ({ signal }) => getOverview(days, signal),
    placeholderData: keepPreviousData,
  });
}

export function useOverview(days: number) {
  return useQuery(overviewQueryOptions(days));
}
