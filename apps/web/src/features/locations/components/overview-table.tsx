import './locations.css';
import { formatDuration } from '@review-desk/shared/durations';
import {
  OVERVIEW_SORT_KEYS,
  type OverviewFigures,
  type OverviewRow,
  type OverviewSortKey,
  type OverviewTotals,
} from '@review-desk/shared/location-overview';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { locationHref } from '../../../lib/location.ts';

const HEADINGS: Record<OverviewSortKey, string> = {
  name: 'Location',
  sent: 'Requests sent',
  completionRate: 'Completion rate',
  reviews: 'Reviews',
  avgRating: 'Average rating',
  lowWaiting: 'Low ratings waiting',
  responseRate: 'Response rate',
  medianFirstReplySeconds: 'Median time to first reply',
};

type Figure = Exclude<OverviewSortKey, 'name'>;
const FIGURES = OVERVIEW_SORT_KEYS.filter((k): k is Figure => k !== 'name');

function show(key: Figure, figures: OverviewFigures): string {
  const value = figures[key];
  if (value === null) return '—';
  if (key === 'completionRate' || key === 'responseRate') return formatPercent(value);
  if (key === 'medianFirstReplySeconds') return formatDuration(value);
  if (key === 'avgRating') return `${formatNumber(value, 2)} ★`;
  return formatNumber(value);
}

export type Sort = { key: OverviewSortKey; dir: 'asc' | 'desc' };

/** One row a location (its name links into it), a failed location's error in its row, the totals last. */
export function OverviewTable({
  rows,
  totals,
  sort,
  onSort,
}: {
  rows: readonly OverviewRow[];
  totals: OverviewTotals;
  sort: Sort;
  onSort: (key: OverviewSortKey) => void;
}) {
  return (
    <table className="data-table overview-table" data-testid="overview-table">
      <thead>
        <tr>
          {OVERVIEW_SORT_KEYS.map((key) => (
            <th
              key={key}
              scope="col"
              aria-sort={sort.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              <button type="button" className="sort-button" onClick={() => onSort(key)}>
                {HEADINGS[key]}
                <span aria-hidden="true">{sort.key === key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
              </button>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.slug} data-testid="overview-row" data-slug={row.slug}>
            <th scope="row" data-label={HEADINGS.name}>
              <a href={locationHref(row.slug, '/analytics')}>{row.name}</a>
            </th>
            {row.ok ? (
              FIGURES.map((key) => (
                <td key={key} data-label={HEADINGS[key]} data-figure={key} className="cell-number">
                  {show(key, row)}
                </td>
              ))
            ) : (
              <td colSpan={FIGURES.length} className="overview-error" role="status">
                Could not read this location: {row.error}
                {row.code ? ` (${row.code})` : ''}
              </td>
            )}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="overview-totals">
          <th scope="row">
            All {totals.counted === rows.length ? '' : `${totals.counted} of ${rows.length} `}locations
          </th>
          {FIGURES.map((key) => (
            <td key={key} data-label={HEADINGS[key]} data-figure={key} className="cell-number">
              {show(key, totals)}
              {totals.partial.includes(key) && (
                <span title="Some locations do not report this figure">
                  {' '}
                  *<span className="visually-hidden"> (not every location reports this)</span>
                </span>
              )}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}
