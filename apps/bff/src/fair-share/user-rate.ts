import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';

// Each dashboard user's fair share of the upstream key's rate limit. All users send with one key,
// whose limit (the API's 120/min by default) is shared: without a share of their own, one runaway
// tab or script could use it all up and leave colleagues unable to send. GCRA, as the API counts
// its keys: a user may burst up to the per-minute share, then gets one call every 60/limit
// seconds. It is counted in the BFF's database (component `user_rate`) by an UPSERT, so every
// worker and replica on that database counts together. The calls of one user that arrive in the
// same turn of the event loop are counted by one UPSERT, which grants the first so many of them
// exactly as that many UPSERTs in a row would (docs/decisions/0020-bff-per-call-cost.md). The
// table holds one row per user who called lately (rows whose time has passed are swept), and only
// signed-in users get one.

export const USER_RATE_MIGRATIONS = migrationsBeside(import.meta.url, 'user_rate');

const PERIOD_MS = 60_000;
/** How often the rows of users whose share is whole again are deleted. */
const SWEEP_EVERY_MS = 60_000;

export type ShareDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * One statement decides and records n calls: the user's theoretical arrival time moves on by one
 * interval for each call that fits in the period, in order, and the first call that does not fit
 * stops the count (the time does not move for it, so no later one fits either). `granted` says how
 * many fitted: the same as n one-call statements in a row at the same time.
 * A time more than two periods ahead (the clock went back) counts from now instead of locking out.
 * Not one period: after a full burst the stored time is a period ahead of the call that set it, and
 * a call taken a moment earlier (another worker or replica, or one that waited on the row) would
 * find it "more than a period ahead" and be let through over the share.
 * $1 user, $2 now, $3 interval, $4 period (all whole milliseconds), $5 calls.
 */
const NOW = 'CAST($2 AS BIGINT)';
const INTERVAL = 'CAST($3 AS BIGINT)';
const PERIOD = 'CAST($4 AS BIGINT)';
const CALLS = 'CAST($5 AS BIGINT)';
/** Where the next call starts from: the stored time if it lies ahead (within two periods), else now. */
const BASE = `(CASE WHEN user_rate.tat > ${NOW} AND user_rate.tat <= ${NOW} + 2 * ${PERIOD} THEN user_rate.tat ELSE ${NOW} END)`;
/** How many calls fit from `base` on, between 0 and the calls asked for (both engines' integer division truncates). */
const fitting = (base: string) => {
  const room = `(${PERIOD} + ${NOW} - ${base}) / ${INTERVAL}`;
  return `(CASE WHEN ${room} <= 0 THEN 0 WHEN ${room} >= ${CALLS} THEN ${CALLS} ELSE ${room} END)`;
};
const GRANTED = fitting(BASE);
const FIRST = fitting(NOW);
const TAKE = `
  INSERT INTO user_rate (user_id, tat, allowed, granted)
  VALUES ($1, ${NOW} + ${FIRST} * ${INTERVAL}, CASE WHEN ${FIRST} = ${CALLS} THEN 1 ELSE 0 END, ${FIRST})
  ON CONFLICT (user_id) DO UPDATE SET
    tat = CASE WHEN ${GRANTED} > 0 THEN ${BASE} + ${GRANTED} * ${INTERVAL} ELSE user_rate.tat END,
    allowed = CASE WHEN ${GRANTED} = ${CALLS} THEN 1 ELSE 0 END,
    granted = ${GRANTED}
  RETURNING tat, granted`;

type Waiter = (decision: ShareDecision) => void;
type Failed = (error: unknown) => void;
/** The calls of one user waiting for this turn's statement, in arrival order. */
type Pending = { waiters: Waiter[]; failed: Failed[] };

const ALLOWED: ShareDecision = Object.freeze({ allowed: true });

export function createUserRate(db: Database, perMinute: number, now: () => number = Date.now) {
  const take = db.prepare(TAKE);
  const sweep = db.prepare('DELETE FROM user_rate WHERE tat < CAST($1 AS BIGINT)');
  // Whole milliseconds (PostgreSQL's bigint), rounded up: never more than the share.
  const interval = Math.ceil(PERIOD_MS / perMinute);
  let sweptAt = 0;
  /** This turn's calls by user: emptied when the turn ends, so it holds no more than one turn's calls. */
  let pending = new Map<string, Pending>();
  let scheduled = false;

  async function count(userId: string, calls: Pending, at: number): Promise<void> {
    const n = calls.waiters.length;
    try {
      const row = await take.get<{ tat: number | string; granted: number | string }>(
        userId,
        at,
        interval,
        PERIOD_MS,
        n,
      );
      const granted = Number(row?.granted ?? 0);
      const tat = Number(row?.tat ?? at);
      // Every call refused this turn was refused against the time the granted ones left.
      const wait = Math.max(tat, at) + interval - PERIOD_MS - at;
      const refused: ShareDecision = {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
      };
      for (let i = 0; i < n; i++) (calls.waiters[i] as Waiter)(i < granted ? ALLOWED : refused);
    } catch (error) {
      for (const fail of calls.failed) fail(error);
    }
  }

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const at = now();
    if (at - sweptAt >= SWEEP_EVERY_MS) {
      sweptAt = at;
      await sweep.run(at).catch(() => {});
    }
    await Promise.all([...batch].map(([userId, calls]) => count(userId, calls, at)));
  }

  return {
    perMinute,
    /**
     * Counts one upstream call for the user, or says how long to wait (counting nothing). Settles
     * once the turn's statement for the user has run (the calls of one turn are counted together).
     */
    take(userId: string): Promise<ShareDecision> {
      return new Promise<ShareDecision>((resolve, reject) => {
        let calls = pending.get(userId);
        if (calls === undefined) {
          calls = { waiters: [], failed: [] };
          pending.set(userId, calls);
        }
        calls.waiters.push(resolve);
        calls.failed.push(reject);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    /** Users with calls waiting for this turn's statement (for the bound's test). */
    waitingUsers: () => pending.size,
    /** Deletes the rows of users whose share is whole again (also done by `take` once a minute). */
    async sweep(): Promise<void> {
      await sweep.run(now());
    },
  };
}
export type UserRate = ReturnType<typeof createUserRate>;
