import {
  FINAL_LEG_STATES,
  REQUEST_ENDPOINTS,
  type RequestList,
  requestListSchema,
  requestsSearchParams,
} from '@review-desk/shared/requests';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-error.ts';
import { getJson, withQuery } from '../../../lib/http.ts';

// GET /api/v1/requests (the service's extension, docs/api.md "Reading requests back"): what
// happened to each message of the newest requests. An upstream without it answers 404; the page
// then keeps its journal-only view and says delivery state is not available.

/** The newest requests fetched to show beside the journal's page (the most one page can take). */
export const DELIVERY_WINDOW = 100;
/** While a message is still on its way, its state is asked for again this often. */
export const DELIVERY_REFRESH_MS = 5_000;

export function getRequests(signal?: AbortSignal) {
  return getJson(
    withQuery(REQUEST_ENDPOINTS.list.path, requestsSearchParams({ page: 1, limit: DELIVERY_WINDOW })),
    requestListSchema,
    signal,
  );
}

export const requestsKeys = {
  all: ['requests'] as const,
  delivery: () => [...requestsKeys.all, 'delivery', { limit: DELIVERY_WINDOW }] as const,
};

/** Whether a list still holds a message whose state can change (not delivered, failed or unknown yet). */
export function hasMessagesOnTheirWay(list: RequestList | undefined): boolean {
  return (
    list?.requests.some((r) =>
      r.legs.some((leg) => !FINAL_LEG_STATES.includes(leg.state) && leg.state !== 'unknown'),
    ) ?? false
  );
}

/** The upstream does not offer the extension. */
export function isNotOffered(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function requestsDeliveryQueryOptions() {
  return queryOptions({
    queryKey: requestsKeys.delivery(),
    queryFn: ({ signal }) => getRequests(signal),
    staleTime: 2_000,
    refetchInterval: (query) => (hasMessagesOnTheirWay(query.state.data) ? DELIVERY_REFRESH_MS : false),
    // A 404 will read the same way next time: no retries (the shared retry policy has none for it).
  });
}

export function useRequestsDelivery() {
  return useQuery(requestsDeliveryQueryOptions());
}
