import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import { decisionOf, type RateDecision, type RateStore, rateInterval } from '@review-desk/server/rate/gcra';
import { memoryRateStore } from '@review-desk/server/rate/memory';
import { sqlRateStore } from '@review-desk/server/rate/sql';

// The limit per API key, answered with 429 (docs/api.md, "Limits"): GCRA, as packages/server
// writes it (rate/gcra.ts). A service on SQLite is one process and counts in memory; replicas on
// PostgreSQL count together in `api_rate`, each call timed by the database's clock so replicas
// whose clocks differ still count on one — unless the service runs on a movable clock (DEV_CLOCK,
// tests), whose time it then gives.

export const RATE_MIGRATIONS = migrationsBeside(import.meta.url, 'rate');

export type { RateDecision };
export type RateLimiter = {
  check(key: string, limitPerMinute: number, now: number): Promise<RateDecision>;
};

function limiter(store: RateStore, callerClock: boolean): RateLimiter {
  return {
    async check(key, limitPerMinute, now) {
      const taken = await store.take(key, callerClock ? now : null, rateInterval(limitPerMinute), 1);
      return decisionOf(taken, limitPerMinute);
    },
  };
}

/** One process counting alone, in memory. */
export function createRateLimiter(): RateLimiter {
  return limiter(memoryRateStore(), true);
}

/** Replicas counting together in the database; `callerClock`: timed by the `now` each call gives. */
export function createSharedRateLimiter(db: Queryable, options: { callerClock?: boolean } = {}): RateLimiter {
  const store = sqlRateStore(db, { table: 'api_rate', key: 'key_id' });
  return limiter(store, options.callerClock === true || db.dialect === 'sqlite');
}
