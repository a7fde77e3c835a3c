import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
import { rateInterval, retryAfterSeconds } from '@review-desk/server/rate/gcra';
import { sqlRateStore } from '@review-desk/server/rate/sql';

// Each dashboard user's fair share of the upstream key's rate limit. All users send with one key,
// whose limit (the API's 120/min by default) is shared: without a share of their own, one runaway
// tab or script could use it all up and leave colleagues unable to send. GCRA, as the API counts
// its keys: a user may burst up to the per-minute share, then gets one call every 60/limit
// seconds. It is counted in the BFF's database (component `user_rate`) by an UPSERT, so every
// worker and replica on that database counts together. The calls of one user that arrive in the
// same turn of the event loop are counted by one UPSERT, which grants the first so many of them
// exactly as that many UPSERTs in a row would (docs/decisions/0020-bff-per-call-cost.md). The
// table holds one row per user who called lately (rows whose time has passed are swept), and only
// signed-in users get one. The rules and their statement are the server kit's (rate/gcra.ts, rate/sql.ts).

export const USER_RATE_MIGRATIONS = migrationsBeside(import.meta.url, 'user_rate');

export type ShareDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type Waiter = (decision: ShareDecision) => void;
type Failed = (error: unknown) => void;
/** The calls of one user waiting for this turn's statement, in arrival order. */
type Pending = { waiters: Waiter[]; failed: Failed[] };

const ALLOWED: ShareDecision = Object.freeze({ allowed: true });

export function createUserRate(db: Database, perMinute: number, now: () => number = Date.now) {
  const store = sqlRateStore(db, { table: 'user_rate', key: 'user_id' });
  const interval = rateInterval(perMinute);
  /** This turn's calls by user: emptied when the turn ends, so it holds no more than one turn's calls. */
  let pending = new Map<string, Pending>();
  let scheduled = false;

  async function count(userId: string, calls: Pending, at: number): Promise<void> {
    const n = calls.waiters.length;
    try {
      const taken = await store.take(userId, at, interval, n);
      // Every call refused this turn was refused against the time the granted ones left.
      const refused: ShareDecision = {
        allowed: false,
        retryAfterSeconds: retryAfterSeconds(taken, interval),
      };
      for (let i = 0; i < n; i++) (calls.waiters[i] as Waiter)(i < taken.granted ? ALLOWED : refused);
    } catch (error) {
      for (const fail of calls.failed) fail(error);
    }
  }

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const at = now();
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
    sweep: (): Promise<void> => store.sweep(now()),
  };
}
export type UserRate = ReturnType<typeof createUserRate>;
