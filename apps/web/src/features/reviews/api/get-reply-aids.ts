import { BFF_REVIEW_ACTIONS_PATH, reviewActionsSchema } from '@review-desk/shared/review-reply';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';
import { inLocation } from '../../../lib/location.ts';

// What the reply box reads besides the review: who answered it before (the dashboard's journal,
// GET /bff/review-actions), and the location's saved replies.

export function reviewActionsQueryOptions(slug: string | null, id: string) {
  return queryOptions({
    queryKey: ['review-actions', slug, id] as const,
    queryFn: ({ signal }) =>
      getJson(
        inLocation(`${BFF_REVIEW_ACTIONS_PATH}?review=${encodeURIComponent(id)}`, slug),
        reviewActionsSchema,
        signal,
      ),
  });
}

export const useReviewActions = (slug: string | null, id: string) =>
  useQuery(reviewActionsQueryOptions(slug, id));

// The location's saved replies are read by Settings too: lib/saved-replies.ts.
export { savedRepliesQueryOptions, useSavedReplies } from '../../../lib/saved-replies.ts';
