import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/error-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Stars } from '../../../components/stars.tsx';
import { formatDate } from '../../../lib/format.ts';
import { locationHref } from '../../../lib/location.ts';
import { ATTENTION_PAGE, useAttention } from '../api/get-attention.ts';

/** Reviews a page shows: the list is read whole, then paged here (a phone's screen holds a few). */
export const ATTENTION_PER_PAGE = 10;

/** The newest low-rated reviews still waiting for a response, across every location the user may see. */
export default function NeedsAttentionPage({ title }: { title: string }) {
  const attention = useAttention();
  const data = attention.data;
  const [params, setParams] = useSearchParams();
  const pages = Math.max(1, Math.ceil((data?.items.length ?? 0) / ATTENTION_PER_PAGE));
  const asked = Number(params.get('page'));
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  const from = (page - 1) * ATTENTION_PER_PAGE;
  const shown = data?.items.slice(from, from + ATTENTION_PER_PAGE) ?? [];
  const go = (to: number) => setParams(to === 1 ? {} : { page: String(to) });
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
            {shown.map(({ slug, locationName, review }) => (
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
      {data && data.items.length > ATTENTION_PER_PAGE && (
        <nav className="pager" aria-label="Pages">
          <Text size="sm" data-testid="attention-range">
            {from + 1}–{from + shown.length} of {data.items.length}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={page <= 1} onClick={() => go(page - 1)}>
              Newer
            </Button>
            <Button variant="default" size="xs" disabled={page >= pages} onClick={() => go(page + 1)}>
              Older
            </Button>
          </Group>
        </nav>
      )}
    </Stack>
  );
}
