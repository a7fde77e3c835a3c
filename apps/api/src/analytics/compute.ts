import { type AnalyticsOutput, CHANNELS, SYNCED_PLATFORMS } from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import { dayOf, dayToDate } from '../store/time.ts';

// GET /api/v1/analytics, per shared METRIC_DEFINITIONS. The window is the last `days` UTC
// calendar days, today included. Request figures follow the cohort of requests created in the
// window (clicked/completed = of those, so far); review figures count reviews dated in the window.
// Everything is read from the daily roll-ups: at most `days` rows per table.

const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : null);
const mean = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

export async function computeAnalytics(
  store: Store,
  businessId: number,
  days: number,
  now: number,
): Promise<AnalyticsOutput> {
  const to = dayOf(now);
  const from = to - days + 1;
  const [req, rev, requestDays, reviewDays, platforms] = await Promise.all([
    store.analytics.requestTotals(businessId, from, to),
    store.analytics.reviewTotals(businessId, from, to),
    store.analytics.requestDays(businessId, from, to),
    store.analytics.reviewDays(businessId, from, to),
    store.analytics.platforms(businessId, from, to),
  ]);

  const daily = Array.from({ length: days }, (_, i) => ({
    date: dayToDate(from + i),
    sent: 0,
    completed: 0,
    reviews: 0,
    synced: 0,
    avgRating: null as number | null,
  }));
  for (const [day, sent, completed] of requestDays) {
    const entry = daily[day - from]!;
    entry.sent = sent;
    entry.completed = completed;
  }
  for (const [day, n, ratingSum, synced] of reviewDays) {
    const entry = daily[day - from]!;
    entry.reviews = n;
    entry.synced = synced;
    entry.avgRating = mean(ratingSum, n);
  }

  // The known networks always appear (0 when none), others only when present.
  const byPlatform: Record<string, number> = Object.fromEntries(SYNCED_PLATFORMS.map((p) => [p, 0]));
  for (const p of platforms) {
    if (p.platform !== 'direct' && p.n > 0) byPlatform[p.platform] = p.n;
  }

  return {
    rangeDays: days,
    from: dayToDate(from),
    to: dayToDate(to),
    reviews: {
      total: rev.n,
      avgRating: mean(rev.rating_sum, rev.n),
      responded: rev.responded,
      pending: rev.pending,
      ignored: rev.ignored,
      responseRate: rate(rev.responded, rev.n),
      byRating: { '1': rev.r1, '2': rev.r2, '3': rev.r3, '4': rev.r4, '5': rev.r5 },
    },
    requests: {
      total: req.total,
      sent: req.sent,
      clicked: req.clicked,
      completed: req.completed,
      // The legacy field, the same completions; neither proves a review was published (docs/api.md,
      // "Analytics").
      reviewLeft: req.completed,
      feedback: req.feedback,
      handoffs: req.handoffs,
      failed: req.failed,
      byChannel: Object.fromEntries(CHANNELS.map((c) => [c, req[c]])) as Record<
        (typeof CHANNELS)[number],
        number
      >,
      clickRate: rate(req.clicked, req.sent),
      completionRate: rate(req.completed, req.sent),
    },
    synced: { total: rev.synced_n, avgRating: mean(rev.synced_rating_sum, rev.synced_n), byPlatform },
    daily,
  };
}
