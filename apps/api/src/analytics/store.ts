import type { Queryable } from '@review-desk/server/db/types';
import { REQUEST_DAILY_SUMS, type RequestRollupDelta } from './request-rollup.ts';

/** A window's request figures: the roll-up's columns summed (analytics/request-rollup.ts). */
export type RequestTotals = RequestRollupDelta;

export type ReviewTotals = {
  n: number;
  rating_sum: number;
  pending: number;
  responded: number;
  ignored: number;
  r1: number;
  r2: number;
  r3: number;
  r4: number;
  r5: number;
  synced_n: number;
  synced_rating_sum: number;
};

/** [day, sent, completed] */
export type RequestDay = [number, number, number];
/** [day, reviews, rating sum, synced] */
export type ReviewDay = [number, number, number, number];

/**
 * Reads the daily roll-ups of a day range (inclusive). Window totals are summed by the database
 * (one row back); the per-day series come back as arrays of the few columns they need.
 */
export function analyticsStore(db: Queryable) {
  const requestTotals = db.prepare(
    `SELECT ${REQUEST_DAILY_SUMS} FROM request_daily WHERE business_id = $1 AND day BETWEEN $2 AND $3`,
  );
  const reviewTotals =
    db.prepare(`SELECT coalesce(sum(n), 0) AS n, coalesce(sum(rating_sum), 0) AS rating_sum,
    coalesce(sum(pending), 0) AS pending, coalesce(sum(responded), 0) AS responded,
    coalesce(sum(ignored), 0) AS ignored, coalesce(sum(r1), 0) AS r1, coalesce(sum(r2), 0) AS r2,
    coalesce(sum(r3), 0) AS r3, coalesce(sum(r4), 0) AS r4, coalesce(sum(r5), 0) AS r5,
    coalesce(sum(synced_n), 0) AS synced_n, coalesce(sum(synced_rating_sum), 0) AS synced_rating_sum
    FROM review_daily WHERE business_id = $1 AND day BETWEEN $2 AND $3`);
  // A day's slots summed (analytics/request-rollup.ts).
  const requestDays = db.prepare(`SELECT day, sum(sent) AS sent, sum(completed) AS completed
    FROM request_daily WHERE business_id = $1 AND day BETWEEN $2 AND $3 GROUP BY day`);
  const reviewDays = db.prepare(
    'SELECT day, n, rating_sum, synced_n FROM review_daily WHERE business_id = $1 AND day BETWEEN $2 AND $3',
  );
  const platforms = db.prepare(`SELECT platform, sum(n) AS n FROM review_daily_platform
    WHERE business_id = $1 AND day BETWEEN $2 AND $3 GROUP BY platform`);
  return {
    async requestTotals(businessId: number, from: number, to: number): Promise<RequestTotals> {
      return (await requestTotals.get<RequestTotals>(businessId, from, to))!;
    },
    async reviewTotals(businessId: number, from: number, to: number): Promise<ReviewTotals> {
      return (await reviewTotals.get<ReviewTotals>(businessId, from, to))!;
    },
    async requestDays(businessId: number, from: number, to: number): Promise<RequestDay[]> {
      type Row = { day: number; sent: number; completed: number };
      return (await requestDays.all<Row>(businessId, from, to)).map((r) => [r.day, r.sent, r.completed]);
    },
    async reviewDays(businessId: number, from: number, to: number): Promise<ReviewDay[]> {
      type Row = { day: number; n: number; rating_sum: number; synced_n: number };
      return (await reviewDays.all<Row>(businessId, from, to)).map((r) => [
        r.day,
        r.n,
        r.rating_sum,
        r.synced_n,
      ]);
    },
    async platforms(businessId: number, from: number, to: number) {
      const rows = await platforms.all<{ platform: string; n: number }>(businessId, from, to);
      return rows.map((r) => ({ platform: r.platform, n: Number(r.n) }));
    },
  };
}
