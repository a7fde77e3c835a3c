import { ENDPOINTS, reviewsSearchParams, WEBHOOK_PATHS, WEBHOOKS_SCOPE } from '@review-desk/shared';
import { createUpstreamHeaders } from '../proxy/headers.ts';
import type { RoutedLocation } from './directory.ts';

// A read the BFF makes on its own (alerts' polls and digests, the Locations overview, the check
// for paused webhook endpoints): a GET of one of the API's endpoints at a location's own
// upstream, with that location's key. A redirect
// is answered as it is, never followed (it could carry the key elsewhere).

export type GetResult =
  | { kind: 'reply'; status: number; headers: Headers; body: Buffer }
  | { kind: 'error'; reason: 'timeout' | 'unreachable' };

/** What to read: one of the API's endpoints at a location, with its query. */
export type LocationRead = {
  location: RoutedLocation;
  endpoint: keyof typeof LOCATION_READS;
  query: URLSearchParams;
};

/** The reads a location allows: each one's path and the scope its key needs. */
export const LOCATION_READS = {
  reviews: ENDPOINTS.reviews,
  analytics: ENDPOINTS.analytics,
  webhooks: { path: WEBHOOK_PATHS.list, scope: WEBHOOKS_SCOPE },
} as const;

/** The reviews query whose one-row page's total counts the pending reviews (at or above `minRating`). */
export function pendingReviewsQuery(minRating?: number): URLSearchParams {
  return reviewsSearchParams({ page: 1, limit: 1, status: 'pending', ...(minRating ? { minRating } : {}) });
}

export async function getFromLocation(
  { location, endpoint, query }: LocationRead,
  requestId: string,
): Promise<GetResult> {
  const base = location.upstream.url.href.replace(/\/+$/, '');
  const headers = createUpstreamHeaders(location.upstream)({ method: 'GET', requestId });
  delete headers.host;
  try {
    const response = await fetch(`${base}${LOCATION_READS[endpoint].path}?${query}`, {
      headers: headers as Record<string, string>,
      redirect: 'manual',
      signal: AbortSignal.timeout(location.upstream.timeoutMs),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return { kind: 'reply', status: response.status, headers: response.headers, body };
  } catch (error) {
    return { kind: 'error', reason: (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable' };
  }
}
