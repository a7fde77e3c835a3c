import { type ReviewsQuery, reviewListSchema, reviewsSearchParams } from '@review-desk/shared/reviews';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { getJson, withQuery } from '../../../lib/http.ts';
import { queryRead } from '../../../lib/queries.ts';
import { parseReviewFilters } from '../filters.ts';

// GET /api/v1/reviews through the BFF (same path, query and envelope as the upstream, docs/api.md).

export type ReviewsListQuery = Pick<ReviewsQuery, 'page' | 'limit'> &
  Partial<Pick<ReviewsQuery, 'status' | 'minRating' | 'maxRating'>>;

export function getReviews(query: ReviewsListQuery, signal?: AbortSignal) {
  return getJson(withQuery(ENDPOINTS.reviews.path, reviewsSearchParams(query)), reviewListSchema, signal);
}

export const reviewsKeys = {
  all: ['reviews'] as const,
  list: (query: ReviewsListQuery) =>
    [
      ...reviewsKeys.all,
      'list',
      {
        page: query.page,
        limit: query.limit,
        status: query.status,
        minRating: query.minRating,
        maxRating: query.maxRating,
      },
    ] as const,
};

const reviews = queryRead(reviewsKeys.list, getReviews);
export const reviewsQueryOptions = reviews.options;
export const useReviews = reviews.use;

/**
 * The list for these filters, and whether the review service offers the highest rating asked
 * for. `maxRating` is an extension (docs/api.md, "Design choices"): a deployment without it
 * refuses it (a 400 naming it: the list is asked for again without it) or ignores it (a review
 * above it on the page). Either way the list is every rating from the lowest chosen up, and
 * `rangeNotOffered` says so.
 */
export function useReviewsList(query: ReviewsListQuery) {
  const [refusedMax, setRefusedMax] = useState(false);
  const asked = refusedMax ? { ...query, maxRating: undefined } : query;
  const list = useReviews(asked);
  const max = query.maxRating;
  const refused =
    max !== undefined && list.error instanceof ApiError && list.error.fields?.maxRating !== undefined;
  useEffect(() => {
    if (refused) setRefusedMax(true);
  }, [refused]);
  const ignored = max !== undefined && list.data?.reviews.some((review) => review.rating > max) === true;
  return { list, rangeNotOffered: max !== undefined && (refusedMax || refused || ignored) };
}

/** The list the Reviews page asks for at this address (its state is its URL, see filters.ts). */
export function reviewsQueryOptionsForUrl(search: URLSearchParams) {
  return reviewsQueryOptions(parseReviewFilters(search).filters);
}
