import '../../../components/field-list.css';
import './requests.css';
import { Anchor, Button, CopyButton, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { LIMIT_DEFAULT, PAGE_MAX, PAGE_MIN } from '@review-desk/shared/limits';
import { isLastPage, pageRange } from '@review-desk/shared/reviews';
import { type FormEvent, useEffect, useState } from 'react';
import { withMantine } from '../../../app/mantine.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { Link, useSearchParams } from '../../../lib/router.tsx';
import { isNotOffered, useRequestsDelivery } from '../api/get-requests.ts';
import { useSends } from '../api/get-sends.ts';
import { channelLabel } from '../channel-labels.ts';
import { guessedCountry } from '../country-guess.ts';
import { AutomaticRequests } from './automatic-requests.tsx';
import { LegStateLegend } from './leg-state.tsx';
import { OUTCOME_LEGEND } from './outcome-badge.tsx';
import { RequestState } from './request-state.tsx';

function readQuery(params: URLSearchParams) {
  const rawPage = params.get('page');
  const page =
    rawPage && /^\d{1,10}$/.test(rawPage)
      ? Math.min(PAGE_MAX, Math.max(PAGE_MIN, Number(rawPage)))
      : PAGE_MIN;
  const contact = params.get('contact')?.trim() || undefined;
  // A number written as people say it (415 555 2671) is read in their country.
  const country =
    contact && !contact.startsWith('+') && !contact.includes('@') ? guessedCountry() : undefined;
  return { page, limit: LIMIT_DEFAULT, contact, country };
}

function RecentRequestsPage({ title }: { title: string }) {
  const [params, setParams] = useSearchParams();
  const query = readQuery(params);
  const sends = useSends(query);
  const delivery = useRequestsDelivery();
  const records = new Map((delivery.data?.requests ?? []).map((r) => [r.id, r]));
  const notOffered = isNotOffered(delivery.error);
  const now = Date.now();
  const [contactInput, setContactInput] = useState(query.contact ?? '');
  useEffect(() => setContactInput(query.contact ?? ''), [query.contact]);

  const go = (next: { page?: number; contact?: string | undefined }) => {
    const out = new URLSearchParams();
    const contact = 'contact' in next ? next.contact : query.contact;
    if (contact) out.set('contact', contact);
    const page = next.page ?? PAGE_MIN;
    if (page !== PAGE_MIN) out.set('page', String(page));
    setParams(out);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    go({ contact: contactInput.trim() || undefined });
  };

  // A contact the server could not read is the field's own error, in its words, not a failed page.
  const contactError = sends.error instanceof ApiError ? sends.error.fields?.contact : undefined;
  const data = contactError ? undefined : sends.data;
  const busy = sends.isFetching && sends.isPlaceholderData;
  const range = data ? pageRange({ page: data.page, limit: data.limit, reviews: data.sends }) : null;

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="Review requests sent from this dashboard, newest first, each with its state: tap a state for what it means."
        actions={
          <Button component={Link} to={paths.send}>
            Send a request
          </Button>
        }
      />
      <search>
        <form onSubmit={search} className="filters" aria-label="Filter by contact">
          <TextInput
            label="Contact"
            description="A phone number or an email address"
            error={contactError}
            value={contactInput}
            onChange={(event) => setContactInput(event.currentTarget.value)}
            className="filters__grow"
          />
          <Group gap="xs" className="filters__buttons">
            <Button type="submit" variant="default">
              Filter
            </Button>
            {query.contact && (
              <Button variant="subtle" onClick={() => go({ contact: undefined })}>
                Show all
              </Button>
            )}
          </Group>
        </form>
      </search>
      <details className="legend">
        <summary>What the service’s answers mean</summary>
        <dl className="field-list">
          {OUTCOME_LEGEND.map((item) => (
            <div className="field-list__row" key={item.outcome}>
              <dt>{item.label}</dt>
              <dd>{item.meaning}</dd>
            </div>
          ))}
        </dl>
      </details>
      {notOffered ? (
        <Text size="sm" c="dimmed" data-testid="delivery-not-available">
          Delivery state is not available from this API: the outcomes below are this dashboard’s own record of
          what the service answered.
        </Text>
      ) : (
        <LegStateLegend />
      )}
      {delivery.error && !notOffered && (
        <Text size="sm" c="dimmed" data-testid="delivery-error">
          Delivery state could not be read: {delivery.error.message}
        </Text>
      )}
      {sends.error && !contactError && <ErrorState error={sends.error} onRetry={() => sends.refetch()} />}
      {!data && !sends.error && <Skeleton height={200} aria-label="Loading recent requests" />}
      {data && data.sends.length === 0 && (
        <div className="empty-state" data-testid="requests-empty">
          <Text fw={600}>{query.contact ? 'No requests to this contact' : 'No requests sent yet'}</Text>
          <Text size="sm" c="dimmed">
            {query.contact
              ? `Nothing was sent from this dashboard to “${query.contact}”.`
              : 'Requests you send from this dashboard appear here.'}
          </Text>
        </div>
      )}
      {data && data.sends.length > 0 && (
        <DataTable
          className="requests-table"
          busy={busy}
          columns={['When', 'Customer', 'Channel', 'State', 'Sent by', 'Review link']}
        >
          {data.sends.map((entry) => (
            <tr key={entry.id} data-testid="send-row">
              <td data-label="When" className="cell-nowrap">
                {formatDateTime(entry.createdAt)}
              </td>
              <td data-label="Customer">
                <div>{entry.customerName || <span className="muted">No name</span>}</div>
                <Text size="xs" c="dimmed">
                  {entry.contact}
                </Text>
              </td>
              <td data-label="Channel">{channelLabel(entry.channel)}</td>
              <td data-label="State" className="cell-state">
                <RequestState
                  entry={entry}
                  record={entry.requestId ? records.get(entry.requestId) : undefined}
                  now={now}
                />
              </td>
              <td data-label="Sent by" className="cell-break">
                {entry.sentBy}
              </td>
              <td data-label="Review link">
                {entry.reviewLink ? (
                  <Group gap={6} wrap="nowrap">
                    <Anchor href={entry.reviewLink} target="_blank" rel="noopener noreferrer" size="sm">
                      Open
                    </Anchor>
                    <CopyButton value={entry.reviewLink}>
                      {({ copied, copy }) => (
                        <Button size="compact-xs" variant="subtle" onClick={copy}>
                          {copied ? 'Copied' : 'Copy'}
                        </Button>
                      )}
                    </CopyButton>
                  </Group>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {data && data.total > 0 && range && (
        <nav className="pager" aria-label="Pages">
          <Text size="sm">
            {range.from}–{range.to} of {data.total}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              disabled={busy || data.page <= 1}
              onClick={() => go({ page: data.page - 1 })}
            >
              Newer
            </Button>
            <Button
              variant="default"
              size="xs"
              disabled={busy || isLastPage({ ...data, reviews: data.sends })}
              onClick={() => go({ page: data.page + 1 })}
            >
              Older
            </Button>
          </Group>
        </nav>
      )}
      <AutomaticRequests list={delivery.data} now={now} />
    </Stack>
  );
}

export default withMantine(RecentRequestsPage);
