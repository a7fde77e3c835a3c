import { IDEMPOTENCY_KEY_HEADER } from '@review-desk/shared/bff';
import {
  reviewDetailSchema,
  reviewPath,
  reviewReplyPath,
  type StatusBody,
} from '@review-desk/shared/review-reply';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/http.ts';
import { inLocation } from '../../../lib/location.ts';
import { INBOX_KEY } from '../inbox.ts';
import { reviewKeys } from './get-review.ts';
import { reviewsKeys } from './get-reviews.ts';

// The changes a user makes to a review (docs/bff.md, "Answering reviews"): a reply or a
// withdrawal, each with the Idempotency-Key of its intent (a retry of the same intent reuses it;
// the server delivers it at most once), and ignore or reopen. Each names the version it read; the
// answer is the review as it now is. Afterwards the lists (and the inbox) are read again.

export type Change =
  | { kind: 'reply'; text: string; version: number; key: string }
  | { kind: 'withdraw'; version: number; key: string }
  | { kind: 'status'; status: StatusBody['status']; version: number };

export async function changeReview(slug: string | null, id: string, change: Change) {
  const path = (p: string) => inLocation(p, slug);
  if (change.kind === 'reply')
    return (
      await request(path(reviewReplyPath(id)), reviewDetailSchema, {
        method: 'POST',
        body: { text: change.text, version: change.version },
        headers: { [IDEMPOTENCY_KEY_HEADER]: change.key },
      })
    ).data;
  if (change.kind === 'withdraw')
    return (
      await request(path(`${reviewReplyPath(id)}?version=${change.version}`), reviewDetailSchema, {
        method: 'DELETE',
        headers: { [IDEMPOTENCY_KEY_HEADER]: change.key },
      })
    ).data;
  return (
    await request(path(reviewPath(id)), reviewDetailSchema, {
      method: 'PATCH',
      body: { status: change.status, version: change.version },
    })
  ).data;
}

export function useChangeReview(slug: string | null, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) => changeReview(slug, id, change),
    onSuccess: (review) => {
      client.setQueryData(reviewKeys.one(slug, id), review);
      void client.invalidateQueries({ queryKey: reviewsKeys.all });
      void client.invalidateQueries({ queryKey: INBOX_KEY });
    },
    // A refusal may say the review changed meanwhile: read it again.
    onError: () => client.invalidateQueries({ queryKey: reviewKeys.one(slug, id) }),
  });
}
