import { analyticsResultSchema, analyticsSearchParams } from '@review-desk/shared/analytics';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import { getJson, withQuery } from '../../../lib/http.ts';
import { queryRead } from '../../../lib/queries.ts';

// GET /api/v1/analytics through the BFF. Read with the tolerant schema: a deployment is only known
// to send `completed` and `reviewLeft` (docs/api.md, "Analytics"), so everything else may be
// missing.

export function getAnalytics(days: number, signal?: AbortSignal) {
  return getJson(
    withQuery(ENDPOINTS.analytics.path, analyticsSearchParams({ days })),
    analyticsResultSchema,
    signal,
  );
}

export const analyticsKeys = {
  all: ['analytics'] as const,
  window: (days: number) => [...analyticsKeys.all, { days }] as const,
};

const analytics = queryRead(analyticsKeys.window, getAnalytics);
export const analyticsQueryOptions = analytics.options;
export const useAnalytics = analytics.use;
