import { type BulkSendRequestInput, bulkPaths } from '@review-desk/shared/bulk';
import { z } from '@review-desk/shared/zod';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';

// POST /bff/bulk-sends: the job is stored and answered at once (202 {id}); the BFF sends it.

const createdSchema = z.object({ id: z.string() });

export async function createBulkSend(body: BulkSendRequestInput): Promise<string> {
  return (await request(bulkPaths.list, createdSchema, { method: 'POST', body })).data.id;
}

export function useCreateBulkSend() {
  return useMutation({ mutationFn: createBulkSend });
}
