import { AppError } from '@review-desk/server/errors';
import {
  analyticsQuerySchema,
  analyticsSearchParams,
  ENDPOINTS,
  queryRecord,
  reviewsQuerySchema,
  reviewsSearchParams,
} from '@review-desk/shared';

// The upstream target of a read: the path and a query rebuilt from the parsed values, never the
// browser's text. A dashboard asks the same few queries again and again, so each valid query
// string is validated once and its target remembered. The memory is keyed by what the browser
// sent, so it is bounded: only valid queries are kept, at most TARGETS_MAX per endpoint, and the
// map is emptied when full (a flood of distinct valid queries costs a revalidation, nothing more).

export const TARGETS_MAX = 1_000;

const readSchemas = {
  reviews: { schema: reviewsQuerySchema, canonical: reviewsSearchParams },
  analytics: { schema: analyticsQuerySchema, canonical: analyticsSearchParams },
} as const;
export type ReadEndpoint = keyof typeof readSchemas;

export function createReadTargets() {
  const caches: Record<ReadEndpoint, Map<string, string>> = { reviews: new Map(), analytics: new Map() };
  return {
    /** The upstream target for this query string: validated (400 on a bad query) and remembered. */
    resolve(endpoint: ReadEndpoint, search: string): string {
      const cache = caches[endpoint];
      const known = cache.get(search);
      if (known !== undefined) return known;
      const { schema, canonical } = readSchemas[endpoint];
      const parsed = schema.safeParse(queryRecord(search));
      if (!parsed.success) throw AppError.validation(parsed.error);
      const query = canonical(parsed.data as never).toString();
      const path = ENDPOINTS[endpoint].path;
      const target = query ? `${path}?${query}` : path;
      if (cache.size >= TARGETS_MAX) cache.clear();
      cache.set(search, target);
      return target;
    },
    /** How many targets are remembered (for the bound's test). */
    size: () => caches.reviews.size + caches.analytics.size,
  };
}
export type ReadTargets = ReturnType<typeof createReadTargets>;
