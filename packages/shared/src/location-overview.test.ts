import { describe, expect, it } from 'vitest';
import type { AnalyticsResult } from './analytics.ts';
import { type OverviewRow, overviewFigures, overviewTotals, sortOverview } from './location-overview.ts';

const analytics = (
  sent: number,
  completed: number,
  reviews: number,
  avg: number | null,
): AnalyticsResult => ({
  requests: { sent, completed, reviewLeft: completed },
  reviews: { total: reviews, avgRating: avg },
});

const row = (
  slug: string,
  a: AnalyticsResult,
  pending: { total: number; ratedAboveLow: number } | null = { total: 0, ratedAboveLow: 0 },
): OverviewRow => ({
  slug,
  name: slug,
  ok: true,
  ...overviewFigures(a, pending),
});

describe('overviewFigures', () => {
  it('computes the completion rate from the counts and low ratings waiting from the two pending totals', () => {
    const figures = overviewFigures(analytics(40, 10, 12, 4.25), { total: 7, ratedAboveLow: 4 });
    expect(figures).toEqual({
      sent: 40,
      completed: 10,
      completionRate: 0.25,
      reviews: 12,
      avgRating: 4.25,
      lowWaiting: 3,
      responded: null,
      responseRate: null,
      medianFirstReplySeconds: null,
    });
  });

  it('takes the response rate from the counts and the median time to first reply as the service gives it', () => {
    const figures = overviewFigures(
      {
        ...analytics(40, 10, 12, 4.25),
        reviews: { total: 12, responded: 9 },
        replies: { medianFirstReplySeconds: 5400 },
      },
      null,
    );
    expect(figures).toMatchObject({
      reviews: 12,
      responded: 9,
      responseRate: 0.75,
      medianFirstReplySeconds: 5400,
    });
  });

  it('says "not provided" rather than zero for what a minimal deployment does not send', () => {
    const figures = overviewFigures({ completed: 5, reviewLeft: 5 }, null);
    expect(figures).toEqual({
      sent: null,
      completed: 5,
      completionRate: null,
      reviews: null,
      avgRating: null,
      lowWaiting: null,
      responded: null,
      responseRate: null,
      medianFirstReplySeconds: null,
    });
    expect(overviewFigures(analytics(0, 0, 0, null), null).completionRate).toBeNull();
  });
});

describe('overviewTotals', () => {
  it('weighs the completion rate and the rating by counts, not by averaging the rows', () => {
    const rows = [
      row('big', analytics(300, 30, 300, 4.0), { total: 10, ratedAboveLow: 8 }),
      row('small', analytics(10, 9, 3, 1.0), { total: 2, ratedAboveLow: 0 }),
    ];
    const totals = overviewTotals(rows);
    expect(totals.sent).toBe(310);
    expect(totals.completed).toBe(39);
    expect(totals.completionRate).toBeCloseTo(39 / 310, 10); // the rows' mean would be 0.5
    expect(totals.reviews).toBe(303);
    expect(totals.avgRating).toBeCloseTo((300 * 4 + 3 * 1) / 303, 10); // the rows' mean would be 2.5
    expect(totals.lowWaiting).toBe(4);
    expect(totals).toMatchObject({ counted: 2, failed: 0 });
  });

  it('weighs the response rate by counts, and has no median of medians', () => {
    const answered = (reviews: number, responded: number, median: number): AnalyticsResult => ({
      reviews: { total: reviews, responded },
      replies: { medianFirstReplySeconds: median },
    });
    const totals = overviewTotals([
      row('big', answered(300, 30, 60)),
      row('small', answered(10, 10, 86_400)),
    ]);
    expect(totals.responseRate).toBeCloseTo(40 / 310, 10); // the rows' mean would be 0.55
    expect(totals.medianFirstReplySeconds).toBeNull();
  });

  it('leaves a failed row out of every total and counts it as failed', () => {
    const rows: OverviewRow[] = [
      row('a', analytics(10, 5, 4, 5)),
      { slug: 'down', name: 'Down', ok: false, error: 'unreachable', code: 'upstream_unreachable' },
    ];
    const totals = overviewTotals(rows);
    expect(totals).toMatchObject({ sent: 10, completed: 5, completionRate: 0.5, counted: 1, failed: 1 });
  });

  it('marks a figure partial when some location does not provide it, and rates only over rows with both counts', () => {
    const rows = [
      row('full', analytics(100, 20, 10, 3)),
      row('minimal', { completed: 50, reviewLeft: 50 }, null),
    ];
    const totals = overviewTotals(rows);
    expect(totals.completed).toBe(70);
    expect(totals.sent).toBe(100);
    expect(totals.completionRate).toBe(0.2);
    expect(totals.partial).toEqual(
      expect.arrayContaining(['sent', 'reviews', 'completionRate', 'lowWaiting']),
    );
    expect(totals.avgRating).toBe(3);
  });

  it('has no rates when nothing was sent or rated', () => {
    const totals = overviewTotals([row('quiet', analytics(0, 0, 0, null))]);
    expect(totals.completionRate).toBeNull();
    expect(totals.avgRating).toBeNull();
    expect(overviewTotals([]).sent).toBeNull();
  });
});

describe('sortOverview', () => {
  const rows: OverviewRow[] = [
    row('b', analytics(5, 1, 1, 2)),
    { slug: 'x', name: 'x', ok: false, error: 'down', code: undefined },
    row('a', analytics(50, 1, 9, 5)),
    row('c', analytics(5, 5, 2, 4)),
  ];
  it('sorts by a figure either way, failed rows last, ties in the original order', () => {
    expect(sortOverview(rows, 'sent', 'desc').map((r) => r.slug)).toEqual(['a', 'b', 'c', 'x']);
    expect(sortOverview(rows, 'sent', 'asc').map((r) => r.slug)).toEqual(['b', 'c', 'a', 'x']);
    expect(sortOverview(rows, 'completionRate', 'desc').map((r) => r.slug)).toEqual(['c', 'b', 'a', 'x']);
    expect(sortOverview(rows, 'name', 'asc').map((r) => r.slug)).toEqual(['a', 'b', 'c', 'x']);
  });
});
