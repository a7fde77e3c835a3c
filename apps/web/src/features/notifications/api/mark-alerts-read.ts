import { ALERT_PATHS, type MarkAlertsRead } from '@review-desk/shared/alerts';
import { z } from '@review-desk/shared/zod';
import { sendJson, useChangeThenReread } from '../../../lib/changes.ts';
import { alertsKeys } from './get-alerts.ts';

// POST /bff/alerts/read: some of the user's alerts ({ids}) or all of them ({all: true}).

const markedSchema = z.object({ marked: z.number().check(z.int()) });

export function markAlertsRead(body: MarkAlertsRead) {
  return sendJson('POST', ALERT_PATHS.read, markedSchema, body);
}

export function useMarkAlertsRead() {
  return useChangeThenReread(markAlertsRead, alertsKeys.all);
}
