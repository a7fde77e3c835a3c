import '../../../components/field-list.css';
import '../../../components/overlays.css';
import { Drawer, Skeleton, Stack, Text } from '@mantine/core';
import { type ReviewDetail as Detail, REVIEW_ID_PATTERN } from '@review-desk/shared/review-reply';
import { type ReviewItem, reviewStatusOf } from '@review-desk/shared/reviews';
import { lazy, type ReactNode, Suspense } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { Stars } from '../../../components/stars.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { PlatformBadge, StatusBadge } from './badges.tsx';

// The API promises no review fields beyond id, status and rating (docs/api.md, "Review items"). The
// fields our service writes get labels; every other field a deployment sends is shown as it came.
// Below them, a review of our service can be answered (the reply panel, its own chunk).

const ReplyPanel = lazy(() => import('./reply-panel.tsx'));

const KNOWN: Record<string, { label: string; render: (value: unknown, review: ReviewItem) => ReactNode }> = {
  rating: { label: 'Rating', render: (_, review) => <Stars rating={review.rating} /> },
  response_status: {
    label: 'Status',
    render: (_, review) => <StatusBadge status={reviewStatusOf(review)} />,
  },
  status: { label: 'Status', render: (_, review) => <StatusBadge status={reviewStatusOf(review)} /> },
  author_name: { label: 'Author', render: (value) => (typeof value === 'string' && value) || 'Anonymous' },
  review_date: { label: 'Date', render: (value) => formatDateTime(typeof value === 'string' ? value : null) },
  platform: {
    label: 'Platform',
    render: (value) => <PlatformBadge platform={typeof value === 'string' ? value : null} />,
  },
  text: { label: 'Review text', render: (value) => <Prose value={value} empty="No text" /> },
  response_text: {
    label: 'Business response',
    render: (value) => <Prose value={value} empty="No response yet" />,
  },
  id: { label: 'Review ID', render: (value) => <code>{String(value)}</code> },
};
const ORDER = [
  'rating',
  'response_status',
  'status',
  'author_name',
  'review_date',
  'platform',
  'text',
  'response_text',
  'id',
];

function Prose({ value, empty }: { value: unknown; empty: string }) {
  if (typeof value !== 'string' || value.trim() === '') return <span className="muted">{empty}</span>;
  return <span className="prose">{value}</span>;
}

export function GenericValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  if (typeof value === 'string') return <span className="prose">{value}</span>;
  if (typeof value === 'number' || typeof value === 'boolean') return <span>{String(value)}</span>;
  return <pre className="json-value">{JSON.stringify(value, null, 2)}</pre>;
}

export function reviewFieldRows(
  review: ReviewItem,
): { key: string; label: string; node: ReactNode; known: boolean }[] {
  const record = review as Record<string, unknown>;
  const keys = Object.keys(record);
  // When a deployment sends both status spellings, show the one reviewStatusOf uses, once.
  const statusKey = record.response_status !== undefined ? 'response_status' : 'status';
  const known = ORDER.filter(
    (key) => keys.includes(key) && (key === statusKey || (key !== 'status' && key !== 'response_status')),
  );
  const unknown = keys.filter((key) => !(key in KNOWN)).sort();
  return [
    ...known.map((key) => ({
      key,
      label: KNOWN[key]!.label,
      node: KNOWN[key]!.render(record[key], review),
      known: true,
    })),
    ...(statusKey === 'response_status' && keys.includes('status')
      ? [{ key: 'status', label: 'status', node: <GenericValue value={record.status} />, known: false }]
      : []),
    ...unknown.map((key) => ({ key, label: key, node: <GenericValue value={record[key]} />, known: false })),
  ];
}

function ReviewDetail({
  review,
  onClose,
  slug = null,
  businessName,
  onAnswered,
}: {
  review: ReviewItem | null;
  onClose: () => void;
  /** The review's location (null: this page's). */
  slug?: string | null;
  /** What `{business_name}` reads in a saved reply. */
  businessName: string;
  onAnswered?: (review: Detail) => void;
}) {
  const rows = review ? reviewFieldRows(review) : [];
  const knownRows = rows.filter((row) => row.known);
  const otherRows = rows.filter((row) => !row.known);
  return (
    <Drawer opened={review !== null} onClose={onClose} position="right" size="md" title="Review details">
      {review && (
        <Stack gap="md">
          <dl className="field-list">
            {knownRows.map((row) => (
              <div key={row.key} className="field-list__row">
                <dt>{row.label}</dt>
                <dd>{row.node}</dd>
              </div>
            ))}
          </dl>
          {REVIEW_ID_PATTERN.test(String(review.id)) && (
            <Suspense fallback={<Skeleton height={140} aria-label="Loading the reply" />}>
              <ReplyPanel
                key={String(review.id)}
                id={String(review.id)}
                slug={slug}
                businessName={businessName}
                {...(onAnswered ? { onAnswered } : {})}
              />
            </Suspense>
          )}
          {otherRows.length > 0 && (
            <div>
              <Text fw={600} size="sm" mb={4}>
                Other fields from the service
              </Text>
              <dl className="field-list">
                {otherRows.map((row) => (
                  <div key={row.key} className="field-list__row">
                    <dt>
                      <code>{row.label}</code>
                    </dt>
                    <dd>{row.node}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

export default withMantine(ReviewDetail);
