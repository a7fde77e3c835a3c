import { useRef, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { LazyErrorState as ErrorState } from '../../../components/error-state-lazy.tsx';
import { isAbortError } from '../../../lib/api-error.ts';
import { MARKS, markNow } from '../../../lib/perf-marks.ts';
import { toast } from '../../../lib/toast.ts';
import type { ExportProgress } from '../api/export-reviews.ts';
import type { ReviewFilters } from '../filters.ts';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress | null }
  | { kind: 'failed'; error: unknown };

/** "Export CSV" of every review matching the filters, with progress and cancel. */
export function ExportCsv({
  filters,
}: {
  filters: Pick<ReviewFilters, 'status' | 'minRating' | 'maxRating'>;
}) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);

  async function start() {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'running', progress: null });
    try {
      // The export's code (the page walk, the CSV writer) loads on the first export.
      const [{ exportFileName, fetchAllReviews, reviewsToCsv }, { downloadText }] = await Promise.all([
        import('../api/export-reviews.ts'),
        import('../../../lib/csv.ts'),
      ]);
      const reviews = await fetchAllReviews(
        filters,
        (progress) => setState({ kind: 'running', progress }),
        abort.signal,
      );
      markNow(MARKS.exportFetched, { rows: reviews.length });
      const csv = await reviewsToCsv(reviews);
      if (abort.signal.aborted) return;
      downloadText(csv, exportFileName(filters));
      markNow(MARKS.exportDownloaded);
      setState({ kind: 'idle' });
      toast({
        color: 'green',
        title: 'Export ready',
        message: `${reviews.length} review${reviews.length === 1 ? '' : 's'} exported.`,
      });
    } catch (error) {
      if (abort.signal.aborted || isAbortError(error)) return;
      setState({ kind: 'failed', error });
    }
  }

  function cancel() {
    controller.current?.abort();
    controller.current = null;
    setState({ kind: 'idle' });
    toast({ title: 'Export cancelled', message: 'Nothing was downloaded.' });
  }

  if (state.kind === 'running') {
    const { progress } = state;
    const percent =
      progress && progress.total > 0 ? Math.min(100, (progress.fetched / progress.total) * 100) : 0;
    const label = progress
      ? `Exporting: ${progress.fetched} of ${progress.total} reviews`
      : 'Exporting: starting…';
    return (
      <div className="export-panel" data-testid="export-progress">
        <p className="text-sm">{label}</p>
        <div className="group group--xs export-panel__row">
          <div className="export-panel__bar">
            <div
              className="export-panel__done"
              role="progressbar"
              aria-label="Export progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={`${percent}%`}
              style={{ width: `${percent}%` }}
            />
          </div>
          <Button size="xs" variant="default" onClick={cancel}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="export-panel">
      <Button variant="default" onClick={start}>
        Export CSV
      </Button>
      {state.kind === 'failed' && <ErrorState error={state.error} onRetry={start} />}
    </div>
  );
}
