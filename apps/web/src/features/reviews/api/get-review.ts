import { reviewDetailSchema, reviewPath } from '@review-desk/shared/review-reply';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/http.ts';
import { inLocation } from '../../../lib/location.ts';

// GET /api/v1/reviews/{id} through the BFF: one review as it now is (its reply, how far it got,
// its version). `slug` names the review's location (the inbox shows several); null: this page's.

export const reviewKeys = {
  all: ['review'] as const,
  one: (slug: string | null, id: string) => [...reviewKeys.all, slug, id] as const,
};

export function getReview(slug: string | null, id: string, signal?: AbortSignal) {
  return getJson(inLocation(reviewPath(id), slug), reviewDetailSchema, signal);
}

export function reviewQueryOptions(slug: string | null, id: string) {
  return queryOptions({
    queryKey: reviewKeys.one(slug, id),
    queryFn: ({ signal }) => getReview(slug, id, signal),
  });
}

export function useReview(slug: string | null, id: string) {
  return useQuery(reviewQueryOptions(slug, id));
}
