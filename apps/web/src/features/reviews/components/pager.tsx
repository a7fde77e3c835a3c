import { isLastPage, pageRange } from '@review-desk/shared/reviews';
import { Button } from '../../../components/button.tsx';

type PageInfo = { page: number; limit: number; total: number; reviews: readonly unknown[] };

/**
 * "21–40 of 57" with previous/next. Next follows the API's stop rule (docs/api.md: no next page
 * when this one is empty or page × limit reaches total), so a deployment whose total and pages
 * disagree never sends the user to an empty page.
 */
export function Pager({
  list,
  onPage,
  busy,
}: {
  list: PageInfo;
  onPage: (page: number) => void;
  busy: boolean;
}) {
  const { from, to } = pageRange(list);
  const last = isLastPage(list);
  const pages = Math.max(1, Math.ceil(list.total / Math.max(1, list.limit)));
  return (
    <nav className="pager" aria-label="Pages">
      <p className="text-sm" aria-live="polite" data-testid="page-range">
        {list.reviews.length === 0 ? `0 of ${list.total}` : `${from}–${to} of ${list.total}`}
      </p>
      <div className="group group--xs">
        <Button variant="default" size="xs" onClick={() => onPage(1)} disabled={busy || list.page <= 1}>
          First
        </Button>
        <Button
          variant="default"
          size="xs"
          onClick={() => onPage(list.page - 1)}
          disabled={busy || list.page <= 1}
        >
          Previous
        </Button>
        <p className="text-sm pager__page">
          Page {list.page} of {pages}
        </p>
        <Button variant="default" size="xs" onClick={() => onPage(list.page + 1)} disabled={busy || last}>
          Next
        </Button>
      </div>
    </nav>
  );
}
