import { ALERT_PATHS, type AlertPreferences, preferencesReplySchema } from '@review-desk/shared/alerts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/changes.ts';
import { alertsKeys } from './get-alerts.ts';
import { preferencesKeys } from './get-preferences.ts';

// PUT /bff/notifications/preferences: all five fields at once.

export function updatePreferences(body: AlertPreferences) {
  return sendJson('PUT', ALERT_PATHS.preferences, preferencesReplySchema, body);
}

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (reply) => {
      queryClient.setQueryData(preferencesKeys.all, reply);
      // The bell says whether alerts are on.
      void queryClient.invalidateQueries({ queryKey: alertsKeys.all });
    },
  });
}
