import { ALERT_PATHS, alertListSchema } from '@review-desk/shared/alerts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';

// GET /bff/alerts: the signed-in user's newest low-rating alerts and how many are unread. Read
// again every minute while the dashboard is open (the BFF polls the API every two minutes).

export const ALERTS_REFRESH_MS = 60_000;

export function getAlerts(signal?: AbortSignal) {
  return getJson(ALERT_PATHS.alerts, alertListSchema, signal);
}

export const alertsKeys = { all: ['alerts'] as const };

export function alertsQueryOptions() {
  return queryOptions({
    queryKey: alertsKeys.all,
    queryFn: ({ signal }) => getAlerts(signal),
    refetchInterval: ALERTS_REFRESH_MS,
    staleTime: 10_000,
  });
}

export function useAlerts() {
  return useQuery(alertsQueryOptions());
}
