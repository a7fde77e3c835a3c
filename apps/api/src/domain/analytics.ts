import { type AnalyticsOutput, CHANNELS, SYNCED_PLATFORMS } from '@review-desk/shared';
import type { Store } from '../store/index.ts';
import { dayOf, dayToDate } from '../store/time.ts';

// GET /api/v1/analytics, per shared METRIC_DEFINITIONS. The window is the last `days` UTC
// calendar days, today included. Request figures follow the cohort of requests created in the
// window (clicked/completed = of those, so far); review figures count reviews dated in the window.
// Everything is read from the daily roll-ups: at most `days` rows per table.

const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : null);
const mean = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

export function computeAnalytics(
  store: Store,
  businessId: number,
  days: number,
  now: number,
): AnalyticsOutput {
  const to = dayOf(now);
  const from = to - days + 1;
  const requestDays = store.analytics.requestDays(businessId, from, to);
  const reviewDays = store.analytics.reviewDays(businessId, from, to);
  const platforms = store.analytics.platforms(businessId, from, to);

  const req = { total: 0, sent: 0, failed: 0, clicked: 0, completed: 0, feedback: 0, handoffs: 0 };
  const byChannel = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Record<
    (typeof CHANNELS)[number],
    number
  >;
  const daily = Array.from({ length: days }, (_, i) => ({
    date: dayToDate(from + i),
    sent: 0,
    completed: 0,
    reviews: 0,
    synced: 0,
    avgRating: null as number | null,
  }));
  for (const d of requestDays) {
    req.total += d.total;
    req.sent += d.sent;
    req.failed += d.failed;
    req.clicked += d.clicked;
    req.completed += d.completed;
    req.feedback += d.feedback;
    req.handoffs += d.handoffs;
    for (const c of CHANNELS) byChannel[c] += d[c];
    const entry = daily[d.day - from]!;
    entry.sent = d.sent;
    entry.completed = d.completed;
  }

  const rev = { n: 0, sum: 0, pending: 0, responded: 0, ignored: 0, syncedN: 0, syncedSum: 0 };
  const byRating = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  for (const d of reviewDays) {
    rev.n += d.n;
    rev.sum += d.rating_sum;
    rev.pending += d.pending;
    rev.responded += d.responded;
    rev.ignored += d.ignored;
    rev.syncedN += d.synced_n;
    rev.syncedSum += d.synced_rating_sum;
    byRating['1'] += d.r1;
    byRating['2'] += d.r2;
    byRating['3'] += d.r3;
    byRating['4'] += d.r4;
    byRating['5'] += d.r5;
    const entry = daily[d.day - from]!;
    entry.reviews = d.n;
    entry.synced = d.synced_n;
    entry.avgRating = mean(d.rating_sum, d.n);
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
      avgRating: mean(rev.sum, rev.n),
      responded: rev.responded,
      pending: rev.pending,
      ignored: rev.ignored,
      responseRate: rate(rev.responded, rev.n),
      byRating,
    },
    requests: {
      total: req.total,
      sent: req.sent,
      clicked: req.clicked,
      completed: req.completed,
      // Seed §2: legacy field, the same completions; neither proves a review was published.
      reviewLeft: req.completed,
      feedback: req.feedback,
      handoffs: req.handoffs,
      failed: req.failed,
      byChannel,
      clickRate: rate(req.clicked, req.sent),
      completionRate: rate(req.completed, req.sent),
    },
    synced: { total: rev.syncedN, avgRating: mean(rev.syncedSum, rev.syncedN), byPlatform },
    daily,
  };
}
