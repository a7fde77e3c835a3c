import { ALERT_PATHS, preferencesReplySchema } from '@review-desk/shared/alerts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';

// GET /bff/notifications/preferences: the user's alert choices, whether the server can send
// email, and whether their role may have the weekly digest.

export function getPreferences(signal?: AbortSignal) {
  return getJson(ALERT_PATHS.preferences, preferencesReplySchema, signal);
}

export const preferencesKeys = { all: ['notification-preferences'] as const };

export function preferencesQueryOptions() {
  return queryOptions({ queryKey: preferencesKeys.all, queryFn: ({ signal }) => getPreferences(signal) });
}

export function usePreferences() {
  return useQuery(preferencesQueryOptions());
}
