import '@mantine/core/styles/Combobox.layer.css';
import { Alert, NativeSelect, Skeleton, Stack, Text } from '@mantine/core';
import { METRIC_DEFINITIONS } from '@review-desk/shared/analytics';
import {
  OVERVIEW_SORT_KEYS,
  type OverviewSortKey,
  overviewTotals,
  sortOverview,
} from '@review-desk/shared/location-overview';
import { withMantine } from '../../../app/mantine.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSearchParams } from '../../../lib/router.tsx';
import { overviewDays, useOverview } from '../api/get-overview.ts';
import { OverviewTable, type Sort } from './overview-table.tsx';

const WINDOWS = [7, 30, 90, 365];

function readSort(params: URLSearchParams): Sort {
  const key = params.get('sort');
  const dir = params.get('dir') === 'asc' ? 'asc' : 'desc';
  return (OVERVIEW_SORT_KEYS as readonly string[]).includes(key ?? '')
    ? { key: key as OverviewSortKey, dir }
    : { key: 'name', dir: 'asc' };
}

/** Every location side by side for a window: owners and managers (analytics:read). */
function LocationsOverviewPage({ title }: { title: string }) {
  const [params, setParams] = useSearchParams();
  const days = overviewDays(params);
  const sort = readSort(params);
  const overview = useOverview(days);
  const rows = overview.data ? sortOverview(overview.data, sort.key, sort.dir) : null;

  const update = (next: Record<string, string>) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) merged.set(k, v);
    setParams(merged);
  };

  return (
    <Stack gap="md">
      <PageHeader
        title={title}
        lead="Each location for the same window. Totals are computed from the counts (the completion rate is all completions over all requests sent; the rating is weighted by each location's reviews)."
      />
      <NativeSelect
        label="Window"
        w={180}
        value={String(days)}
        data={[...new Set([...WINDOWS, days])].map((d) => ({ value: String(d), label: `Last ${d} days` }))}
        onChange={(event) => update({ days: event.currentTarget.value })}
      />
      {overview.error && <ErrorState error={overview.error} onRetry={() => overview.refetch()} />}
      {!rows && !overview.error && <Skeleton height={180} aria-label="Loading the locations" />}
      {rows && (
        <div aria-busy={overview.isFetching}>
          <OverviewTable
            rows={rows}
            totals={overviewTotals(rows)}
            sort={sort}
            onSort={(key) =>
              update({
                sort: key,
                dir:
                  sort.key === key && sort.dir === (key === 'name' ? 'asc' : 'desc')
                    ? key === 'name'
                      ? 'desc'
                      : 'asc'
                    : key === 'name'
                      ? 'asc'
                      : 'desc',
              })
            }
          />
        </div>
      )}
      {rows?.some((r) => !r.ok) && (
        <Alert color="yellow" title="Some locations could not be read">
          Their rows show why; the totals leave them out.
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        {METRIC_DEFINITIONS.completed} Low ratings waiting: pending reviews rated 1–2★ now, whatever their
        date.
      </Text>
      <Text size="xs" c="dimmed">
        {METRIC_DEFINITIONS.responseRate} {METRIC_DEFINITIONS.medianFirstReply} The totals row has no median:
        a median is not made of the locations’ medians.
      </Text>
    </Stack>
  );
}

export default withMantine(LocationsOverviewPage);
