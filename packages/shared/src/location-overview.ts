import { type AnalyticsResult, completionFigures } from './analytics.ts';
import { z } from './zod.ts';

// The Locations overview: one row per location for a window, and a totals row computed from the
// counts — the completion rate is Σcompleted / Σsent and the average rating is weighted by each
// location's number of rated reviews, never an average of the rows' averages (a location with
// 3 reviews must not weigh as much as one with 300).

/** Ratings that count as low: they wait for a response first. */
export const LOW_RATING_MAX = 2;

export type OverviewFigures = {
  sent: number | null;
  completed: number | null;
  /** completed / sent; null when sent is 0 or either is not provided. */
  completionRate: number | null;
  reviews: number | null;
  avgRating: number | null;
  /** Pending reviews rated 1–2★ (now, not limited to the window). */
  lowWaiting: number | null;
  /** The window's reviews with a reply now (METRIC_DEFINITIONS.responseRate's numerator). */
  responded: number | null;
  /** responded / reviews. */
  responseRate: number | null;
  /** The median time to first reply of the window's answered reviews (METRIC_DEFINITIONS.medianFirstReply). */
  medianFirstReplySeconds: number | null;
};

export type OverviewRow = { slug: string; name: string } & (
  | ({ ok: true } & OverviewFigures)
  | { ok: false; error: string; code?: string | undefined }
);

const figure = /* @__PURE__ */ z.nullable(z.number());
/** GET /bff/overview?days=N: the user's locations' rows, in their order. */
export const overviewRowsSchema = /* @__PURE__ */ z.object({
  rows: z.array(
    z.union([
      z.object({
        slug: z.string(),
        name: z.string(),
        ok: z.literal(true),
        sent: figure,
        completed: figure,
        completionRate: figure,
        reviews: figure,
        avgRating: figure,
        lowWaiting: figure,
        responded: figure,
        responseRate: figure,
        medianFirstReplySeconds: figure,
      }),
      z.object({
        slug: z.string(),
        name: z.string(),
        ok: z.literal(false),
        error: z.string(),
        code: z.optional(z.string()),
      }),
    ]),
  ),
});

/** A location's figures from its analytics and its pending-review counts (null: not provided). */
export function overviewFigures(
  analytics: AnalyticsResult,
  pending: { total: number; ratedAboveLow: number } | null,
): OverviewFigures {
  const { completed } = completionFigures(analytics);
  const sent = analytics.requests?.sent ?? null;
  const reviews = analytics.reviews?.total ?? null;
  const avg = analytics.reviews?.avgRating ?? null;
  const responded = analytics.reviews?.responded ?? null;
  return {
    sent,
    completed,
    completionRate: ratio(completed, sent),
    reviews,
    avgRating: reviews === 0 ? null : avg,
    lowWaiting: pending === null ? null : Math.max(0, pending.total - pending.ratedAboveLow),
    responded,
    responseRate: ratio(responded, reviews),
    medianFirstReplySeconds: analytics.replies?.medianFirstReplySeconds ?? null,
  };
}

function ratio(part: number | null, whole: number | null): number | null {
  if (part === null || whole === null || whole === 0) return null;
  return part / whole;
}

export type OverviewTotals = OverviewFigures & {
  /** Rows that answered; the others are left out of every total. */
  counted: number;
  failed: number;
  /** Figures some answering row did not provide: their total covers fewer locations. */
  partial: (keyof OverviewFigures)[];
};

export function overviewTotals(rows: readonly OverviewRow[]): OverviewTotals {
  const ok = rows.filter((r): r is Extract<OverviewRow, { ok: true }> => r.ok);
  const partial: (keyof OverviewFigures)[] = [];
  const sum = (field: 'sent' | 'completed' | 'reviews' | 'lowWaiting' | 'responded'): number | null => {
    const present = ok.filter((r) => r[field] !== null);
    if (present.length < ok.length) partial.push(field);
    return present.length === 0 ? null : present.reduce((s, r) => s + (r[field] as number), 0);
  };
  const sent = sum('sent');
  const completed = sum('completed');
  const reviews = sum('reviews');
  const lowWaiting = sum('lowWaiting');
  const responded = sum('responded');
  // Response rate: only rows with both counts, like the completion rate.
  const answered = ok.filter((r) => r.responded !== null && r.reviews !== null);
  const answeredOf = answered.reduce((s, r) => s + (r.reviews as number), 0);
  const answeredN = answered.reduce((s, r) => s + (r.responded as number), 0);
  if (answered.length < ok.length) partial.push('responseRate');
  // Completion: only rows with both counts, so the rate's two sides cover the same locations.
  const both = ok.filter((r) => r.sent !== null && r.completed !== null);
  const rateSent = both.reduce((s, r) => s + (r.sent as number), 0);
  const rateCompleted = both.reduce((s, r) => s + (r.completed as number), 0);
  if (both.length < ok.length) partial.push('completionRate');
  // Rating: weighted by each row's review count; a row with an average but no count can't be weighed.
  const rated = ok.filter((r) => r.avgRating !== null && r.reviews !== null && r.reviews > 0);
  const weight = rated.reduce((s, r) => s + (r.reviews as number), 0);
  const weighted = rated.reduce((s, r) => s + (r.avgRating as number) * (r.reviews as number), 0);
  if (ok.some((r) => r.avgRating !== null && r.reviews === null)) partial.push('avgRating');
  return {
    sent,
    completed,
    completionRate: ratio(rateCompleted, rateSent),
    reviews,
    avgRating: weight === 0 ? null : weighted / weight,
    lowWaiting,
    responded,
    responseRate: ratio(answeredN, answeredOf),
    // A median is not made of the locations' medians: the totals row has none.
    medianFirstReplySeconds: null,
    counted: ok.length,
    failed: rows.length - ok.length,
    partial,
  };
}

export const OVERVIEW_SORT_KEYS = [
  'name',
  'sent',
  'completionRate',
  'reviews',
  'avgRating',
  'lowWaiting',
  'responseRate',
  'medianFirstReplySeconds',
] as const;
export type OverviewSortKey = (typeof OVERVIEW_SORT_KEYS)[number];

/**
 * Rows sorted by a column; rows without the figure (failed, or not provided) go last in either
 * direction, and ties keep the locations' own order.
 */
export function sortOverview(
  rows: readonly OverviewRow[],
  key: OverviewSortKey,
  direction: 'asc' | 'desc',
): OverviewRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  const value = (row: OverviewRow): string | number | null =>
    key === 'name' ? row.name : row.ok ? row[key] : null;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const va = value(a.row);
      const vb = value(b.row);
      if (va === null || vb === null) return va === vb ? a.index - b.index : va === null ? 1 : -1;
      const order = typeof va === 'string' ? va.localeCompare(vb as string) : (va as number) - (vb as number);
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map(({ row }) => row);
}
