import { RATING_MAX, RATING_MIN } from '@review-desk/shared/limits';
import { REVIEW_STATUS_LABELS, REVIEW_STATUSES, type ReviewStatus } from '@review-desk/shared/reviews';
import { Button } from '../../../components/button.tsx';
import { NativeSelect } from '../../../components/field.tsx';
import { PAGE_SIZES, type ReviewFilters, ratingRangeLabel } from '../filters.ts';

const ANY = 'any';
/** The ratings people look for: the best, the good, the middling, the low ones to answer first. */
const RATING_RANGES: readonly (readonly [number, number])[] = [
  [5, 5],
  [4, 5],
  [3, 5],
  [3, 3],
  [2, 2],
  [1, 2],
  [1, 1],
];

export function ReviewFiltersBar({
  filters,
  onChange,
  onReset,
}: {
  filters: ReviewFilters;
  onChange: (change: Partial<Omit<ReviewFilters, 'page'>>) => void;
  onReset: () => void;
}) {
  const sizes = (PAGE_SIZES as readonly number[]).includes(filters.limit)
    ? PAGE_SIZES
    : [...PAGE_SIZES, filters.limit].sort((a, b) => a - b);
  const filtered =
    filters.status !== undefined || filters.minRating !== undefined || filters.maxRating !== undefined;
  const lo = filters.minRating ?? RATING_MIN;
  const hi = filters.maxRating ?? RATING_MAX;
  const chosen = ratingRangeLabel(filters.minRating, filters.maxRating) !== null;
  const ratingValue = chosen ? `${lo}-${hi}` : ANY;
  // A range from the address that is not among the usual ones is kept and offered.
  const ranges =
    chosen && !RATING_RANGES.some(([a, b]) => a === lo && b === hi)
      ? [...RATING_RANGES, [lo, hi] as const]
      : RATING_RANGES;
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">Filter reviews</legend>
      <NativeSelect
        label="Status"
        value={filters.status ?? ANY}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange({ status: value === ANY ? undefined : (value as ReviewStatus) });
        }}
        data={[
          { value: ANY, label: 'Any status' },
          ...REVIEW_STATUSES.map((status) => ({
            value: status,
            label: REVIEW_STATUS_LABELS[status],
          })),
        ]}
      />
      <NativeSelect
        label="Rating"
        value={ratingValue}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (value === ANY) return onChange({ minRating: undefined, maxRating: undefined });
          const [lo, hi] = value.split('-').map(Number) as [number, number];
          onChange({
            minRating: lo > RATING_MIN ? lo : undefined,
            maxRating: hi < RATING_MAX ? hi : undefined,
          });
        }}
        data={[
          { value: ANY, label: 'Any rating' },
          ...ranges.map(([lo, hi]) => ({ value: `${lo}-${hi}`, label: ratingRangeLabel(lo, hi)! })),
        ]}
      />
      <NativeSelect
        label="Per page"
        value={String(filters.limit)}
        onChange={(event) => onChange({ limit: Number(event.currentTarget.value) })}
        data={sizes.map((size) => ({ value: String(size), label: String(size) }))}
      />
      {filtered && (
        <Button variant="subtle" onClick={onReset} className="filters__reset">
          Clear filters
        </Button>
      )}
    </fieldset>
  );
}
