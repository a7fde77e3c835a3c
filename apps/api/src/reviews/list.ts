import type { ReviewsQuery } from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import { toReview } from './view.ts';

// GET /api/v1/reviews (docs/api.md, "Paging the reviews"): newest first, ties by id; `total` counts
// every match, so the caller's stop rule (reviews empty, or page × limit ≥ total) ends the walk
// exactly.

/**
 * Up to this offset a page is read from the newest end without waiting for the total (it is
 * cheap whatever the total), so on PostgreSQL the two queries run at once on two connections.
 * Deeper pages wait for the total, which tells from which end the page is nearer.
 */
const READ_FROM_FRONT = 10_000;

export async function listReviews(store: Store, businessId: number, query: ReviewsQuery) {
  const filter = {
    status: query.status,
    minRating: query.minRating,
    maxRating: query.maxRating,
    platform: query.platform,
  };
  const offset = (query.page - 1) * query.limit;
  const oldest = query.order === 'oldest';
  const [total, rows] = oldest
    ? await store.reviews
        .total(businessId, filter)
        .then(
          async (n) =>
            [n, await store.reviews.page(businessId, filter, offset, query.limit, n, 'oldest')] as const,
        )
    : offset <= READ_FROM_FRONT
      ? await Promise.all([
          store.reviews.total(businessId, filter),
          store.reviews.page(businessId, filter, offset, query.limit),
        ])
      : await store.reviews
          .total(businessId, filter)
          .then(
            async (n) => [n, await store.reviews.page(businessId, filter, offset, query.limit, n)] as const,
          );
  return { page: query.page, limit: query.limit, total, reviews: rows.map(toReview) };
}
