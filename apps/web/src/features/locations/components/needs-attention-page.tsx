import { Alert, Skeleton, Stack, Text } from '@mantine/core';
import { withMantine } from '../../../app/mantine.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Stars } from '../../../components/stars.tsx';
import { formatDate } from '../../../lib/format.ts';
import { locationHref } from '../../../lib/location.ts';
import { ATTENTION_PAGE, useAttention } from '../api/get-attention.ts';

/** The newest low-rated reviews still waiting for a response, across every location the user may see. */
function NeedsAttentionPage({ title }: { title: string }) {
  const attention = useAttention();
  const data = attention.data;
  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead={`Pending reviews rated 1–2★, newest first, from the ${ATTENTION_PAGE} newest pending reviews of each of your locations.`}
      />
      {attention.error && <ErrorState error={attention.error} onRetry={() => attention.refetch()} />}
      {!data && !attention.error && <Skeleton height={180} aria-label="Loading reviews" />}
      {data && data.failed.length > 0 && (
        <Alert color="yellow" title="Some locations could not be read" data-testid="attention-failed">
          {data.failed.map((f) => (
            <div key={f.slug}>
              {f.name}: {f.error}
            </div>
          ))}
        </Alert>
      )}
      {data && data.items.length === 0 && (
        <Text c="dimmed" data-testid="attention-empty">
          No low-rated review is waiting for a response.
        </Text>
      )}
      {data && data.items.length > 0 && (
        <table className="data-table attention-table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Location</th>
              <th scope="col">Rating</th>
              <th scope="col">Review</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map(({ slug, locationName, review }) => (
              <tr key={`${slug}:${review.id}`} data-testid="attention-row" data-slug={slug}>
                <td data-label="Date">{review.review_date ? formatDate(review.review_date) : '—'}</td>
                <td data-label="Location">
                  <a href={locationHref(slug, '/reviews?status=pending')}>{locationName}</a>
                </td>
                <td data-label="Rating">
                  <Stars rating={review.rating} />
                </td>
                <td data-label="Review" className="cell-text cell-wide">
                  <strong>{review.author_name?.trim() || 'Anonymous'}</strong>
                  {review.text ? <p className="review-excerpt">{review.text}</p> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Stack>
  );
}

export default withMantine(NeedsAttentionPage);
