import { mapBounded } from '@review-desk/shared/fan-out';
import type { LocationSummary } from '@review-desk/shared/locations';
import { reviewListSchema, reviewsSearchParams } from '@review-desk/shared/reviews';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-error.ts';
import { getJson, withQuery } from '../../../lib/http.ts';
import { inLocation } from '../../../lib/location.ts';
import { locationsQueryOptions } from '../../../lib/location-list.ts';
import {
  INBOX_KEY,
  INBOX_SLICE,
  type InboxFilters,
  type InboxSlice,
  inboxQuery,
  mergeInbox,
  parseInboxFilters,
} from '../inbox.ts';

// The inbox's reads: each of the user's locations (or the one chosen) asked for its pending
// reviews oldest first, `depth` slices of INBOX_SLICE, at most FAN_OUT at once; a location whose
// call fails is named with its error instead of hiding the others.

const FAN_OUT = 6;
const PAGE = 100; // the API's largest page

async function sliceOf(
  location: LocationSummary,
  filters: InboxFilters,
  count: number,
  signal?: AbortSignal,
) {
  const reviews = [];
  let total = 0;
  for (let page = 1; (page - 1) * PAGE < count; page++) {
    const limit = Math.min(PAGE, count);
    const query = reviewsSearchParams(inboxQuery(filters, page, limit));
    const list = await getJson(
      inLocation(withQuery(ENDPOINTS.reviews.path, query), location.slug),
      reviewListSchema,
      signal,
    );
    reviews.push(...list.reviews);
    total = list.total;
    if (list.reviews.length < limit) break;
  }
  return {
    slug: location.slug,
    name: location.name,
    reviews: reviews.slice(0, count),
    total,
  } satisfies InboxSlice;
}

export async function getInbox(
  locations: readonly LocationSummary[],
  filters: InboxFilters,
  depth: number,
  signal?: AbortSignal,
) {
  const chosen = filters.location ? locations.filter((l) => l.slug === filters.location) : locations;
  const settled = await mapBounded(chosen, FAN_OUT, (location) =>
    sliceOf(location, filters, depth * INBOX_SLICE, signal),
  );
  const slices = settled.flatMap((result) => (result.ok ? [result.value] : []));
  const failed = settled.flatMap((result, i) => {
    if (result.ok) return [];
    const location = chosen[i] as LocationSummary;
    const error = result.error;
    return [
      {
        slug: location.slug,
        name: location.name,
        error: error instanceof Error ? error.message : 'The call failed.',
        code: error instanceof ApiError ? error.code : null,
      },
    ];
  });
  return { ...mergeInbox(slices), failed };
}

/** The inbox's read: the user's locations (cached, read once at start), then each one's slice. */
export function inboxQueryOptions(client: QueryClient, filters: InboxFilters, depth: number) {
  return queryOptions({
    queryKey: [...INBOX_KEY, filters, depth] as const,
    queryFn: async ({ signal }) => {
      const { locations } = await client.fetchQuery(locationsQueryOptions());
      return getInbox(locations, filters, depth, signal);
    },
  });
}

/** The inbox's first read for the address opened at start (the app asks for it with the session). */
export function inboxQueryOptionsForUrl(client: QueryClient, search: URLSearchParams) {
  return inboxQueryOptions(client, parseInboxFilters(search), 1);
}

export function useInbox(filters: InboxFilters, depth: number) {
  const client = useQueryClient();
  return useQuery({ ...inboxQueryOptions(client, filters, depth), placeholderData: keepPreviousData });
}
