import { type ReviewsQuery, reviewListSchema, reviewsSearchParams } from '@review-desk/shared/reviews';
import { ENDPOINTS } from '@review-desk/shared/scopes';
import { getJson, withQuery } from '../../../lib/http.ts';
import { queryRead } from '../../../lib/queries.ts';
import { parseReviewFilters } from '../filters.ts';

// GET /api/v1/reviews through the BFF (same path, query and envelope as the upstream, docs/api.md).

export type ReviewsListQuery = Pick<ReviewsQuery, 'page' | 'limit'> &
  Partial<Pick<ReviewsQuery, 'status' | 'minRating'>>;

export function getReviews(query: ReviewsListQuery, signal?: AbortSignal) {
  return getJson(withQuery(ENDPOINTS.reviews.path, reviewsSearchParams(query)), reviewListSchema, signal);
}

export const reviewsKeys = {
  all: ['reviews'] as const,
  list: (query: ReviewsListQuery) =>
    [
      ...reviewsKeys.all,
      'list',
      { page: query.page, limit: query.limit, status: query.status, minRating: query.minRating },
    ] as const,
};

const reviews = queryRead(reviewsKeys.list, getReviews);
export const reviewsQueryOptions = reviews.options;
export const useReviews = reviews.use;

/** The list the Reviews page asks for at this address (its state is its URL, see filters.ts). */
export function reviewsQueryOptionsForUrl(search: URLSearchParams) {
  return reviewsQueryOptions(parseReviewFilters(search).filters);
}
