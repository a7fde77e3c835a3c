import { ALERT_PATHS, type AlertPreferences, preferencesReplySchema } from '@review-desk/shared/alerts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { preferencesKeys } from './get-preferences.ts';

// PUT /bff/notifications/preferences: all five fields at once.

export async function updatePreferences(body: AlertPreferences) {
  return (await request(ALERT_PATHS.preferences, preferencesReplySchema, { method: 'PUT', body })).data;
}

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (reply) => queryClient.setQueryData(preferencesKeys.all, reply),
  });
}
