import type { Review, ReviewsQuery } from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import type { ReviewListRow } from '../store/reviews.ts';
import { reviewPublicId } from './ids.ts';

// GET /api/v1/reviews (docs/api.md, "Paging the reviews"): newest first, ties by id; `total` counts
// every match, so the caller's stop rule (reviews empty, or page × limit ≥ total) ends the walk
// exactly.

export function toReview(row: ReviewListRow): Review {
  return {
    id: reviewPublicId(row.id),
    rating: row.rating,
    response_status: row.status,
    author_name: row.author_name,
    text: row.text,
    review_date: new Date(row.review_at).toISOString(),
    response_text: row.response_text,
    platform: row.platform,
  };
}

export async function listReviews(store: Store, businessId: number, query: ReviewsQuery) {
  const filter = { status: query.status, minRating: query.minRating };
  const total = await store.reviews.total(businessId, filter);
  const offset = (query.page - 1) * query.limit;
  const rows = await store.reviews.page(businessId, filter, offset, query.limit, total);
  return { page: query.page, limit: query.limit, total, reviews: rows.map(toReview) };
}
