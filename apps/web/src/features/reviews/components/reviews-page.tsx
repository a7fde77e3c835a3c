import './reviews.css';
import type { ReviewItem } from '@review-desk/shared/reviews';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { Loader, Skeleton } from '../../../components/loader.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSearchParams } from '../../../lib/router.tsx';
import { useSession } from '../../../lib/session.ts';
import { useReviewsList } from '../api/get-reviews.ts';
import {
  DEFAULT_FILTERS,
  describeFilters,
  needsCanonicalUrl,
  parseReviewFilters,
  type ReviewFilters,
  reviewFiltersToParams,
  withFilter,
} from '../filters.ts';
import { ExportCsv } from './export-csv.tsx';
import { Pager } from './pager.tsx';
import { ReviewFiltersBar } from './review-filters.tsx';
import { ReviewsTable } from './reviews-table.tsx';

// The detail drawer's code loads when a review is first opened.
const ReviewDetail = lazy(() => import('./review-detail.tsx'));

function TableSkeleton({ rows }: { rows: number }) {
  return (
    <div
      className="stack stack--xs"
      role="status"
      aria-busy="true"
      aria-label="Loading reviews"
      data-testid="reviews-skeleton"
    >
      {Array.from({ length: Math.min(rows, 8) }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} height={44} />
      ))}
    </div>
  );
}

export default function ReviewsPage({ title }: { title: string }) {
  const me = useSession();
  const [params, setParams] = useSearchParams();
  const { filters, corrections } = useMemo(() => parseReviewFilters(params), [params]);
  const [notice, setNotice] = useState<string[]>([]);
  const [open, setOpenState] = useState<ReviewItem | null>(null);
  const [detailLoaded, setDetailLoaded] = useState(false);
  // Stable, so the table's memoised rows are not re-rendered by every render of the page.
  const setOpen = useCallback((review: ReviewItem | null) => {
    if (review) setDetailLoaded(true);
    setOpenState(review);
  }, []);
  const { list: reviews, rangeNotOffered } = useReviewsList(filters);
  // What the list holds: without the highest rating when the service does not offer it.
  const shown = rangeNotOffered ? { ...filters, maxRating: undefined } : filters;

  // A URL out of range or in a non-canonical form is rewritten in place (no extra history entry).
  useEffect(() => {
    if (!needsCanonicalUrl(params, filters)) return;
    if (corrections.length > 0) setNotice(corrections);
    setParams(reviewFiltersToParams(filters), { replace: true });
  }, [params, filters, corrections, setParams]);

  // A page past the end (an old link, or reviews changed status meanwhile): go to the last page.
  const data = reviews.data;
  useEffect(() => {
    if (!data || reviews.isPlaceholderData) return;
    if (data.reviews.length > 0 || data.total === 0 || filters.page <= 1) return;
    const last = Math.max(1, Math.ceil(data.total / Math.max(1, data.limit)));
    if (last >= filters.page) return;
    setNotice([`page ${filters.page} is past the last page; showing page ${last}`]);
    setParams(reviewFiltersToParams({ ...filters, page: last }), { replace: true });
  }, [data, reviews.isPlaceholderData, filters, setParams]);

  // `?review=<id>` (a link from an alert): open that review's detail once the list shows it,
  // then drop the parameter so closing the drawer does not open it again.
  const linked = params.get('review');
  useEffect(() => {
    if (linked === null || !data || reviews.isPlaceholderData) return;
    const found = data.reviews.find((r) => String(r.id) === linked);
    if (found) setOpen(found);
    else setNotice([`review ${linked} is not on this page of reviews`]);
    const next = new URLSearchParams(params);
    next.delete('review');
    setParams(next, { replace: true });
  }, [linked, data, reviews.isPlaceholderData, params, setParams, setOpen]);

  // Filter and page changes push history entries, so Back and Forward walk through them.
  const go = (next: ReviewFilters) => {
    setNotice([]);
    setParams(reviewFiltersToParams(next));
  };

  const filterText = describeFilters(shown);
  const busy = reviews.isFetching && reviews.isPlaceholderData;

  return (
    <div className="stack">
      <PageHeader
        title={title}
        lead="Reviews of your business: left through review requests, and synced from external networks."
        actions={<ExportCsv filters={shown} />}
      />
      <ReviewFiltersBar
        filters={filters}
        onChange={(change) => go(withFilter(filters, change))}
        onReset={() => go({ ...DEFAULT_FILTERS, limit: filters.limit })}
      />
      {notice.length > 0 && (
        <Alert
          color="blue"
          title="The address was corrected"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice([])}
        >
          {notice.join('; ')}.
        </Alert>
      )}
      {rangeNotOffered && (
        <Alert color="blue" data-testid="range-not-offered">
          This review service does not filter by highest rating: the list shows every rating from{' '}
          {filters.minRating ?? 1}★ up.
        </Alert>
      )}
      {reviews.error && !rangeNotOffered && (
        <ErrorState error={reviews.error} onRetry={() => reviews.refetch()} />
      )}
      {data ? (
        data.reviews.length === 0 ? (
          <div className="empty-state" data-testid="reviews-empty">
            <p className="text text-strong">
              {filterText ? 'No reviews match these filters' : 'No reviews yet'}
            </p>
            <p className="text-sm dimmed">
              {filterText
                ? `Nothing matched ${filterText}.`
                : 'Reviews appear here once customers leave them or they are synced from external networks.'}
            </p>
            {filterText && (
              <Button
                variant="default"
                size="xs"
                className="empty-state__action"
                onClick={() => go({ ...DEFAULT_FILTERS, limit: filters.limit })}
              >
                Clear filters
              </Button>
            )}
          </div>
        ) : (
          <div className={busy ? 'is-refreshing' : undefined}>
            {busy && (
              <p className="text-xs dimmed refresh-note">
                <Loader size={12} className="refresh-note__loader" aria-hidden="true" />
                Loading…
              </p>
            )}
            <ReviewsTable reviews={data.reviews} onOpen={setOpen} busy={busy} />
          </div>
        )
      ) : (
        !reviews.error && <TableSkeleton rows={filters.limit} />
      )}
      {data && data.total > 0 && (
        <Pager list={data} busy={busy} onPage={(page) => go({ ...filters, page })} />
      )}
      {detailLoaded && (
        <Suspense fallback={null}>
          <ReviewDetail
            review={open}
            onClose={() => setOpen(null)}
            businessName={me.business?.name ?? 'our business'}
          />
        </Suspense>
      )}
    </div>
  );
}
