import { ALERT_PATHS, type MarkAlertsRead } from '@review-desk/shared/alerts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request } from '../../../lib/http.ts';
import { alertsKeys } from './get-alerts.ts';

// POST /bff/alerts/read: some of the user's alerts ({ids}) or all of them ({all: true}).

const markedSchema = z.object({ marked: z.number().int() });

export async function markAlertsRead(body: MarkAlertsRead) {
  return (await request(ALERT_PATHS.read, markedSchema, { method: 'POST', body })).data;
}

export function useMarkAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAlertsRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertsKeys.all }),
  });
}
