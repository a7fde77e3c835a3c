import { RATING_MAX, RATING_MIN } from '@review-desk/shared/limits';
import { REVIEW_STATUSES, type ReviewStatus } from '@review-desk/shared/reviews';
import { Button } from '../../../components/button.tsx';
import { NativeSelect } from '../../../components/field.tsx';
import { PAGE_SIZES, type ReviewFilters } from '../filters.ts';

const ANY = 'any';

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
  const filtered = filters.status !== undefined || filters.minRating !== undefined;
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
            label: status[0]!.toUpperCase() + status.slice(1),
          })),
        ]}
      />
      <NativeSelect
        label="Minimum rating"
        value={filters.minRating === undefined ? ANY : String(filters.minRating)}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChange({ minRating: value === ANY ? undefined : Number(value) });
        }}
        data={[
          { value: ANY, label: 'Any rating' },
          ...Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => {
            const stars = RATING_MAX - i;
            return {
              value: String(stars),
              label: stars === RATING_MAX ? '5 stars only' : `${stars} stars or more`,
            };
          }),
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
