import { BFF_PATHS } from '@review-desk/shared/bff';
import type { Settings } from '@review-desk/shared/settings';
import { settingsResponseSchema } from '@review-desk/shared/settings-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { settingsKeys } from './get-settings.ts';

// PUT /bff/settings (owners): the fields the owner changed; the answer is the settings as stored.

export async function updateSettings(body: Partial<Settings>) {
  return (await request(BFF_PATHS.settings, settingsResponseSchema, { method: 'PUT', body })).data;
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (answer) => queryClient.setQueryData(settingsKeys.all, answer),
  });
}
