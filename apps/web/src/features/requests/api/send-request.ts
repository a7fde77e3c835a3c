import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '@review-desk/shared/bff';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import { type SendRequest, sendResultSchema } from '@review-desk/shared/send';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { sendsKeys } from './get-sends.ts';

// POST /api/v1/requests/send through the BFF, which makes it at-most-once per Idempotency-Key
// (the API's send has none, and a resend after a timeout may duplicate).

export type SendVariables = { body: SendRequest; idempotencyKey: string };

export async function sendReviewRequest({ body, idempotencyKey }: SendVariables) {
  const { data, headers } = await request(ENDPOINTS.send.path, sendResultSchema, {
    method: 'POST',
    body,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
  return { result: data, replayed: headers.get(IDEMPOTENCY_REPLAYED_HEADER) === 'true' };
}

export function useSendReviewRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendReviewRequest,
    // Never retried automatically (a blind retry could reach the customer twice). Whatever
    // happened, the send history changed.
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sendsKeys.all }),
  });
}
