import type { Db } from './db.ts';

export type RequestDayRow = {
  day: number;
  total: number;
  sent: number;
  failed: number;
  clicked: number;
  completed: number;
  feedback: number;
  handoffs: number;
  sms: number;
  email: number;
  both: number;
  link: number;
};

export type ReviewDayRow = {
  day: number;
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

/** Reads the daily roll-ups of a day range (inclusive): at most one row per day per table. */
export function analyticsStore(db: Db) {
  const requestDays = db.prepare(`SELECT day, total, sent, failed, clicked, completed, feedback, handoffs,
    sms, email, both, link FROM request_daily WHERE business_id = ? AND day BETWEEN ? AND ? ORDER BY day`);
  const reviewDays = db.prepare(`SELECT day, n, rating_sum, pending, responded, ignored, r1, r2, r3, r4, r5,
    synced_n, synced_rating_sum FROM review_daily WHERE business_id = ? AND day BETWEEN ? AND ? ORDER BY day`);
  const platforms = db.prepare(`SELECT platform, sum(n) AS n FROM review_daily_platform
    WHERE business_id = ? AND day BETWEEN ? AND ? GROUP BY platform`);
  return {
    requestDays(businessId: number, from: number, to: number): RequestDayRow[] {
      return requestDays.all(businessId, from, to) as RequestDayRow[];
    },
    reviewDays(businessId: number, from: number, to: number): ReviewDayRow[] {
      return reviewDays.all(businessId, from, to) as ReviewDayRow[];
    },
    platforms(businessId: number, from: number, to: number): { platform: string; n: number }[] {
      return platforms.all(businessId, from, to) as { platform: string; n: number }[];
    },
  };
}
