import { AppError } from '@review-desk/server/errors';
import {
  analyticsQuerySchema,
  analyticsSearchParams,
  ENDPOINTS,
  queryRecord,
  REQUEST_ENDPOINTS,
  REQUEST_ID_PATTERN,
  REVIEW_ID_PATTERN,
  requestPath,
  requestsQuerySchema,
  requestsSearchParams,
  reviewPath,
  reviewsQuerySchema,
  reviewsSearchParams,
} from '@review-desk/shared';
import { z } from 'zod';

// The upstream target of a read: the path and a query rebuilt from the parsed values, never the
// browser's text. A dashboard asks the same few queries again and again, so each valid query
// string is validated once and its target remembered. The memory is keyed by what the browser
// sent, so it is bounded: only valid queries are kept, at most TARGETS_MAX per endpoint, and the
// map is emptied when full (a flood of distinct valid queries costs a revalidation, nothing more).

export const TARGETS_MAX = 1_000;

const readSchemas = {
  reviews: { schema: reviewsQuerySchema, canonical: reviewsSearchParams, path: ENDPOINTS.reviews.path },
  analytics: {
    schema: analyticsQuerySchema,
    canonical: analyticsSearchParams,
    path: ENDPOINTS.analytics.path,
  },
  requests: {
    schema: requestsQuerySchema,
    canonical: requestsSearchParams,
    path: REQUEST_ENDPOINTS.list.path,
  },
} as const;
export type ReadEndpoint = keyof typeof readSchemas | 'request' | 'review';

/** One request takes no query parameters. */
const noQuerySchema = z.strictObject({});

export function createReadTargets() {
  const caches: Record<keyof typeof readSchemas, Map<string, string>> = {
    reviews: new Map(),
    analytics: new Map(),
    requests: new Map(),
  };
  return {
    /**
     * The upstream target for this query string (and, for one request or review, its path's id):
     * validated (400 on a bad query) and, for lists, remembered. One item's target is rebuilt each
     * time: ids are endless, so remembering them would be a map a client could grow.
     */
    resolve(endpoint: ReadEndpoint, search: string, id?: string): string {
      if (endpoint === 'request' || endpoint === 'review') {
        const parsed = noQuerySchema.safeParse(queryRecord(search));
        if (!parsed.success) throw AppError.validation(parsed.error);
        if (endpoint === 'review') {
          if (id === undefined || !REVIEW_ID_PATTERN.test(id)) throw new AppError('review_not_found');
          return reviewPath(id);
        }
        if (id === undefined || !REQUEST_ID_PATTERN.test(id)) throw new AppError('not_found');
        return requestPath(id);
      }
      const cache = caches[endpoint];
      const known = cache.get(search);
      if (known !== undefined) return known;
      const { schema, canonical, path } = readSchemas[endpoint];
      const parsed = schema.safeParse(queryRecord(search));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const query = canonical(parsed.data as never).toString();
      const target = query ? `${path}?${query}` : path;
      if (cache.size >= TARGETS_MAX) cache.clear();
      cache.set(search, target);
      return target;
    },
    /** How many targets are remembered (for the bound's test). */
    size: () => caches.reviews.size + caches.analytics.size + caches.requests.size,
  };
}
export type ReadTargets = ReturnType<typeof createReadTargets>;
