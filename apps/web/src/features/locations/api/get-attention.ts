import { mapBounded } from '@review-desk/shared/fan-out';
import { LOW_RATING_MAX, needsAttention } from '@review-desk/shared/location-overview';
import { type LocationSummary, locationPrefix } from '@review-desk/shared/locations';
import { reviewListSchema, reviewsSearchParams } from '@review-desk/shared/reviews';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, withQuery } from '../../../lib/http.ts';
import { locationsQueryOptions } from '../../../lib/location-list.ts';
import { FAN_OUT_LIMIT, rowError } from './fan-out.ts';

// "Needs attention": each location's first page of pending reviews (the largest page the API
// allows), merged newest first and kept to the low ratings; a location whose call fails is named
// with its error instead.

export const ATTENTION_PAGE = 100;
export const ATTENTION_SHOWN = 50;

export async function getAttention(locations: readonly LocationSummary[], signal?: AbortSignal) {
  const query = reviewsSearchParams({ page: 1, limit: ATTENTION_PAGE, status: 'pending' });
  const settled = await mapBounded(locations, FAN_OUT_LIMIT, (location) =>
    getJson(
      withQuery(locationPrefix(location.slug) + ENDPOINTS.reviews.path, query),
      reviewListSchema,
      signal,
    ),
  );
  const pages = settled.flatMap((result, i) =>
    result.ok ? [{ ...(locations[i] as LocationSummary), reviews: result.value.reviews }] : [],
  );
  const failed = settled.flatMap((result, i) =>
    result.ok ? [] : [rowError(locations[i] as LocationSummary, result.error)],
  );
  return { items: needsAttention(pages, ATTENTION_SHOWN), failed, lowRatingMax: LOW_RATING_MAX };
}

export function useAttention() {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['locations', 'attention'] as const,
    queryFn: async ({ signal }) => {
      const { locations } = await client.fetchQuery(locationsQueryOptions());
      return getAttention(locations, signal);
    },
  });
}
