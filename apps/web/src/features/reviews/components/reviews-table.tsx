import { type ReviewItem, reviewStatusOf } from '@review-desk/shared/reviews';
import { memo, useLayoutEffect } from 'react';
import { DataTable } from '../../../components/data-table.tsx';
import { Stars } from '../../../components/stars.tsx';
import { formatDate } from '../../../lib/format.ts';
import { MARKS, markAfterPaint } from '../../../lib/perf-marks.ts';
import { PlatformBadge, StatusBadge } from './badges.tsx';

const COLUMNS = ['Rating', 'Author', 'Review', 'Date', 'Platform', 'Status', { hidden: 'Details' }];

/**
 * One row per review. Below 720 px the rows become cards (CSS); explicit roles keep the table
 * semantics for assistive technology when the display changes.
 */
export function ReviewsTable({
  reviews,
  onOpen,
  busy,
}: {
  reviews: readonly ReviewItem[];
  onOpen: (review: ReviewItem) => void;
  busy: boolean;
}) {
  // A new list (first load, filter or page change) is on screen once this frame is painted. The
  // previous list kept on screen while the next loads is the same array, so it marks nothing.
  useLayoutEffect(() => {
    markAfterPaint(MARKS.reviewsRows, { rows: reviews.length });
  }, [reviews]);
  return (
    <DataTable className="reviews-table card-rows" busy={busy} columns={COLUMNS}>
      {reviews.map((review) => (
        <ReviewRow key={String(review.id)} review={review} onOpen={onOpen} />
      ))}
    </DataTable>
  );
}

/**
 * One review. Memoised: while the next page or filter loads, the list on screen re-renders only to
 * dim itself, and its rows stay as they are. Plain elements styled like Mantine's Text, Badge and
 * subtle compact Button (app/page.css): Mantine's components resolve their styles on every render, and
 * a page of rows made of some eighty of them was the largest part of the first paint's work.
 */
const ReviewRow = memo(function ReviewRow({
  review,
  onOpen,
}: {
  review: ReviewItem;
  onOpen: (review: ReviewItem) => void;
}) {
  const author = review.author_name?.trim() || 'Anonymous';
  return (
    <tr data-testid="review-row">
      <td data-label="Rating">
        <Stars rating={review.rating} />
      </td>
      <td data-label="Author" className="cell-author">
        {author}
      </td>
      <td data-label="Review" className="cell-text cell-wide">
        {review.text ? (
          <p className="review-excerpt">{review.text}</p>
        ) : (
          <span className="muted">No text</span>
        )}
      </td>
      <td data-label="Date" className="cell-nowrap">
        {formatDate(review.review_date)}
      </td>
      <td data-label="Platform">
        <PlatformBadge platform={review.platform} />
      </td>
      <td data-label="Status">
        <StatusBadge status={reviewStatusOf(review)} />
      </td>
      <td className="cell-action">
        <button
          type="button"
          className="row-action"
          onClick={() => onOpen(review)}
          aria-label={`Details of the review by ${author}`}
        >
          Details
        </button>
      </td>
    </tr>
  );
});
