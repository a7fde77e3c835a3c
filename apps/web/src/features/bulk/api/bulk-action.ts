import { type BulkAction, bulkJobSchema, bulkPaths } from '@review-desk/shared/bulk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { bulkKeys } from './get-bulk-send.ts';

// POST /bff/bulk-sends/{id}/pause|resume|cancel|retry-unknown: answers the job as it is now.

export async function bulkAction(id: string, action: BulkAction) {
  return (await request(bulkPaths.action(id, action), bulkJobSchema, { method: 'POST' })).data;
}

export function useBulkAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: BulkAction) => bulkAction(id, action),
    onSuccess: (job) => {
      client.setQueryData(bulkKeys.one(id), job);
      void client.invalidateQueries({ queryKey: bulkKeys.one(id) });
    },
  });
}
