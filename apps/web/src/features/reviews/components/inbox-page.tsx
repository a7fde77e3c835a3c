import { Alert, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { replyOutcomeWords } from '@review-desk/shared/reply-words';
import type { ReviewDetail } from '@review-desk/shared/review-reply';
import type { ReviewItem } from '@review-desk/shared/reviews';
import { lazy, Suspense, useMemo, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { NativeSelect } from '../../../components/field.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useLocations } from '../../../lib/location-list.ts';
import { useSearchParams } from '../../../lib/router.tsx';
import { toast } from '../../../lib/toast.ts';
import { useInbox } from '../api/get-inbox.ts';
import {
  INBOX_RATINGS,
  INBOX_SOURCES,
  type InboxFilters,
  type InboxItem,
  inboxFiltersToParams,
  itemKey,
  nextAfter,
  parseInboxFilters,
  RATING_RANGES,
  SOURCE_LABELS,
} from '../inbox.ts';
import { InboxList } from './inbox-list.tsx';

// The inbox (it replaces "Needs attention"): every review still waiting for an answer across the
// user's locations, oldest first, filtered by source, rating and location. Answering one takes it
// off the list and opens the next; the keyboard moves through the list (↑/↓ or j/k, Enter opens).

const ReviewPanel = lazy(() => import('./review-detail.tsx'));

/** On a phone, where each review is a card, the rows shown at a time: "Show more" adds as many. */
export const INBOX_PHONE_STEP = 10;

function InboxPage({ title }: { title: string }) {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseInboxFilters(params), [params]);
  const [depth, setDepth] = useState(1);
  const [open, setOpen] = useState<InboxItem | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const locations = useLocations().data?.locations ?? [];
  const inbox = useInbox(filters, depth);
  const data = inbox.data;
  // A phone shows the rows read so far a few at a time, and reads more only once all are shown.
  const phone = useMediaQuery('(max-width: 720px)') === true;
  const [phoneRows, setPhoneRows] = useState(INBOX_PHONE_STEP);
  const rows = data ? (phone ? data.items.slice(0, phoneRows) : data.items) : [];
  const unshown = (data?.items.length ?? 0) - rows.length;
  const showMore = () => {
    setPhoneRows((n) => n + INBOX_PHONE_STEP);
    if (unshown === 0) setDepth((d) => d + 1);
  };

  const change = (next: Partial<InboxFilters>) => {
    setDepth(1);
    setPhoneRows(INBOX_PHONE_STEP);
    setParams(inboxFiltersToParams({ ...filters, ...next }));
  };

  /** Answered (or ignored): the next review (from the list as it was) opens; the list is read again. */
  const answered = (review: ReviewDetail) => {
    if (!open || !data || review.response_status === 'pending') return;
    // What came of it stays in view while the next review opens.
    const author = review.author_name?.trim() || 'Anonymous';
    toast({
      title: `The review by ${author}`,
      message: review.reply ? replyOutcomeWords(review.reply, formatDateTime).text : 'Ignored: off the list',
      color: review.reply && replyOutcomeWords(review.reply).tone === 'error' ? 'red' : 'green',
    });
    const next = nextAfter(data.items, itemKey(open));
    setOpen(next);
    setSelected(next ? itemKey(next) : null);
  };

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="Every review still waiting for an answer, oldest first. Answer it, or ignore it: either takes it off the list."
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Source"
          value={filters.source}
          data={INBOX_SOURCES.map((s) => ({ value: s, label: SOURCE_LABELS[s] }))}
          onChange={(event) => change({ source: event.currentTarget.value as InboxFilters['source'] })}
        />
        <NativeSelect
          label="Rating"
          value={filters.rating}
          data={INBOX_RATINGS.map((r) => ({ value: r, label: RATING_RANGES[r].label }))}
          onChange={(event) => change({ rating: event.currentTarget.value as InboxFilters['rating'] })}
        />
        {locations.length > 1 && (
          <NativeSelect
            label="Location"
            value={filters.location ?? ''}
            data={[
              { value: '', label: 'All locations' },
              ...locations.map((l) => ({ value: l.slug, label: l.name })),
            ]}
            onChange={(event) => change({ location: event.currentTarget.value || null })}
          />
        )}
        {data && (
          <Text size="sm" c="dimmed" data-testid="inbox-waiting">
            {data.waiting} waiting
          </Text>
        )}
      </Group>
      {inbox.error && <ErrorState error={inbox.error} onRetry={() => inbox.refetch()} />}
      {data && data.failed.length > 0 && (
        <Alert color="yellow" title="Some locations could not be read" data-testid="inbox-failed">
          {data.failed.map((f) => (
            <div key={f.slug}>
              {f.name}: {f.error}
            </div>
          ))}
        </Alert>
      )}
      {!data && !inbox.error && <Skeleton height={180} aria-label="Loading the inbox" />}
      {data && data.items.length === 0 && data.failed.length === 0 && (
        <Text c="dimmed" data-testid="inbox-empty">
          Nothing is waiting for an answer
          {filters.source !== 'all' || filters.rating !== 'any' ? ' with these filters' : ''}.
        </Text>
      )}
      {data && data.items.length > 0 && (
        <InboxList
          items={rows}
          several={locations.length > 1}
          busy={inbox.isFetching}
          selected={selected}
          onSelect={setSelected}
          onOpen={(item) => {
            setSelected(itemKey(item));
            setOpen(item);
          }}
        />
      )}
      {(data?.more || unshown > 0) && (
        <div>
          <Button variant="default" size="xs" loading={inbox.isFetching} onClick={showMore}>
            Show more
          </Button>
        </div>
      )}
      {open && (
        <Suspense fallback={null}>
          <ReviewPanel
            review={open.review as ReviewItem}
            slug={open.slug}
            businessName={open.locationName}
            onClose={() => setOpen(null)}
            onAnswered={answered}
          />
        </Suspense>
      )}
    </Stack>
  );
}

export default withMantine(InboxPage);
