import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';

// Each dashboard user's fair share of the upstream key's rate limit. All users send with one key,
// whose limit (the API's 120/min by default) is shared: without a share of their own, one runaway
// tab or script could use it all up and leave colleagues unable to send. GCRA, as the API counts
// its keys: a user may burst up to the per-minute share, then gets one call every 60/limit
// seconds. It is counted in the BFF's database (component `user_rate`), one UPSERT per call, so
// every worker and replica on that database counts together. The table holds one row per user
// who called lately (rows whose time has passed are swept), and only signed-in users get one.

export const USER_RATE_MIGRATIONS = migrationsBeside(import.meta.url, 'user_rate');

const PERIOD_MS = 60_000;
/** How often the rows of users whose share is whole again are deleted. */
const SWEEP_EVERY_MS = 60_000;

export type ShareDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * One statement decides and records: the user's theoretical arrival time moves on by one interval
 * when the call fits in the period, and stays where it is when it does not. `allowed` says which.
 * A time more than two periods ahead (the clock went back) counts from now instead of locking out.
 * Not one period: after a full burst the stored time is a period ahead of the call that set it, and
 * a call taken a moment earlier (another worker or replica, or one that waited on the row) would
 * find it "more than a period ahead" and be let through over the share.
 * $1 user, $2 now, $3 interval, $4 period (all whole milliseconds).
 */
const NOW = 'CAST($2 AS BIGINT)';
const INTERVAL = 'CAST($3 AS BIGINT)';
const PERIOD = 'CAST($4 AS BIGINT)';
/** Where the next call starts from: the stored time if it lies ahead (within two periods), else now. */
const BASE = `(CASE WHEN user_rate.tat > ${NOW} AND user_rate.tat <= ${NOW} + 2 * ${PERIOD} THEN user_rate.tat ELSE ${NOW} END)`;
const FITS = `${BASE} + ${INTERVAL} - ${NOW} <= ${PERIOD}`;
const TAKE = `
  INSERT INTO user_rate (user_id, tat, allowed) VALUES ($1, ${NOW} + ${INTERVAL}, 1)
  ON CONFLICT (user_id) DO UPDATE SET
    tat = CASE WHEN ${FITS} THEN ${BASE} + ${INTERVAL} ELSE user_rate.tat END,
    allowed = CASE WHEN ${FITS} THEN 1 ELSE 0 END
  RETURNING tat, allowed`;

export function createUserRate(db: Database, perMinute: number, now: () => number = Date.now) {
  const take = db.prepare(TAKE);
  const sweep = db.prepare('DELETE FROM user_rate WHERE tat < CAST($1 AS BIGINT)');
  // Whole milliseconds (PostgreSQL's bigint), rounded up: never more than the share.
  const interval = Math.ceil(PERIOD_MS / perMinute);
  let sweptAt = 0;

  return {
    perMinute,
    /** Counts one upstream call for the user, or says how long to wait (counting nothing). */
    async take(userId: string): Promise<ShareDecision> {
      const at = now();
      if (at - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = at;
        await sweep.run(at);
      }
      const row = await take.get<{ tat: number | string; allowed: number }>(userId, at, interval, PERIOD_MS);
      if (Number(row?.allowed) === 1) return { allowed: true };
      const tat = Number(row?.tat ?? at);
      const wait = Math.max(tat, at) + interval - PERIOD_MS - at;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    },
    /** Deletes the rows of users whose share is whole again (also done by `take` once a minute). */
    async sweep(): Promise<void> {
      await sweep.run(now());
    },
  };
}
export type UserRate = ReturnType<typeof createUserRate>;
