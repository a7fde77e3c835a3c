import type { Review } from '@review-desk/shared';
import { reviewPublicId } from '../ids.ts';
import type { ReviewListRow } from './store.ts';

// A review as the API answers it (docs/api.md, "Review items"): the list's items and the events
// that carry a review (webhooks/) say it the same way.

export function toReview(row: ReviewListRow): Review {
  return {
    id: reviewPublicId(row.id),
    rating: row.rating,
    response_status: row.status,
    author_name: row.author_name,
    text: row.text,
    review_date: new Date(Number(row.review_at)).toISOString(),
    response_text: row.response_text,
    platform: row.platform,
  };
}
