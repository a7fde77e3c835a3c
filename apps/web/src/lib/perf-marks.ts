// Performance API marks at the moments a user waits for: review rows on screen (first load and
// after every filter or page change), the first chart drawn, an export fetched and handed to the
// browser. The benchmark (bench/dashboard.ts) reads them; so could real-user monitoring.

export const MARKS = {
  /** A set of review rows is on screen; detail: { rows }. */
  reviewsRows: 'rd:reviews-rows',
  /** The inbox's rows are on screen; detail: { rows }. */
  inboxRows: 'rd:inbox-rows',
  /** A chart of the analytics page has been drawn; detail: { chart }. */
  analyticsChart: 'rd:analytics-chart',
  /** Every page of a CSV export has been read; detail: { rows }. */
  exportFetched: 'rd:export-fetched',
  /** The CSV file has been handed to the browser's download. */
  exportDownloaded: 'rd:export-downloaded',
} as const;

function mark(name: string, detail?: Record<string, unknown>): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  performance.mark(name, detail ? { detail } : undefined);
}

/** Marks now (for moments that are not about painting). */
export const markNow = mark;

/**
 * Marks once the frame that shows the current DOM has been painted: a requestAnimationFrame
 * callback runs just before that frame's paint, and a task queued from it runs just after. Call
 * it from a layout effect, which runs after React's DOM changes and before the browser paints.
 */
export function markAfterPaint(name: string, detail?: Record<string, unknown>): void {
  if (typeof requestAnimationFrame !== 'function') return;
  requestAnimationFrame(() => setTimeout(() => mark(name, detail), 0));
}
