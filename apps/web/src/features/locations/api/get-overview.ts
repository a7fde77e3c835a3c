import { analyticsResultSchema, analyticsSearchParams } from '@review-desk/shared/analytics';
import { mapBounded } from '@review-desk/shared/fan-out';
import { LOW_RATING_MAX, type OverviewRow, overviewFigures } from '@review-desk/shared/location-overview';
import { type LocationSummary, locationPrefix } from '@review-desk/shared/locations';
import { reviewListSchema, reviewsSearchParams } from '@review-desk/shared/reviews';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, withQuery } from '../../../lib/http.ts';
import { FAN_OUT_LIMIT, rowError } from './fan-out.ts';
import { locationsQueryOptions } from './get-locations.ts';

// The Locations overview: per location its analytics for the window and its pending low ratings
// (pending reviews minus pending reviews rated above 2★, two one-row pages: the list answers its
// total), fanned out with a bound. A location whose calls fail becomes an error row.

async function locationRow(
  location: LocationSummary,
  days: number,
  signal?: AbortSignal,
): Promise<OverviewRow> {
  const base = locationPrefix(location.slug);
  const [analytics, pending, aboveLow] = await Promise.all([
    getJson(
      withQuery(base + ENDPOINTS.analytics.path, analyticsSearchParams({ days })),
      analyticsResultSchema,
      signal,
    ),
    getJson(
      withQuery(base + ENDPOINTS.reviews.path, reviewsSearchParams({ page: 1, limit: 1, status: 'pending' })),
      reviewListSchema,
      signal,
    ),
    getJson(
      withQuery(
        base + ENDPOINTS.reviews.path,
        reviewsSearchParams({ page: 1, limit: 1, status: 'pending', minRating: LOW_RATING_MAX + 1 }),
      ),
      reviewListSchema,
      signal,
    ),
  ]);
  return {
    slug: location.slug,
    name: location.name,
    ok: true,
    ...overviewFigures(analytics, { total: pending.total, ratedAboveLow: aboveLow.total }),
  };
}

export async function getOverview(locations: readonly LocationSummary[], days: number, signal?: AbortSignal) {
  const settled = await mapBounded(locations, FAN_OUT_LIMIT, (location) =>
    locationRow(location, days, signal),
  );
  return settled.map((result, i) =>
    result.ok ? result.value : rowError(locations[i] as LocationSummary, result.error),
  );
}

/** The user's locations, then their rows. */
export function useOverview(days: number) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['locations', 'overview', { days }] as const,
    queryFn: async ({ signal }) => {
      const { locations } = await client.fetchQuery(locationsQueryOptions());
      return getOverview(locations, days, signal);
    },
    placeholderData: keepPreviousData,
  });
}
