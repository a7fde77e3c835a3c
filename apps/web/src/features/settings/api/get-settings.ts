import { BFF_PATHS } from '@review-desk/shared/bff';
import { settingsResponseSchema } from '@review-desk/shared/settings-api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';

// GET /bff/settings (owners): the business's settings, and its name and an example link of real
// length for the preview. An upstream without settings answers `settings_not_offered`.

export function getSettings(signal?: AbortSignal) {
  return getJson(BFF_PATHS.settings, settingsResponseSchema, signal);
}

export const settingsKeys = { all: ['settings'] as const };

export function settingsQueryOptions() {
  return queryOptions({ queryKey: settingsKeys.all, queryFn: ({ signal }) => getSettings(signal) });
}

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
