import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Queryable } from '@review-desk/server/db/types';
import { decisionAfter, PERIOD_MS, type RateLimiter } from './memory.ts';

// The per-key limit counted in the database, for replicas on PostgreSQL: N processes each counting
// in memory would let a key through N times over. One UPSERT per call decides and records (GCRA,
// as the in-memory limiter does), timed by the database's clock_timestamp() so replicas whose
// clocks differ still count on one clock; a service on a movable clock (DEV_CLOCK, tests) times calls by its own.

export const RATE_MIGRATIONS = migrationsBeside(import.meta.url, 'rate');

/** How often the rows of keys whose allowance is whole again are deleted. */
const SWEEP_EVERY_MS = 60_000;

// $1 key, $2 now (ms) or NULL for the database's clock, $3 interval, $4 period (whole ms).
const DB_NOW = {
  postgres:
    'COALESCE(CAST($2 AS BIGINT), CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS BIGINT))',
  // SQLite (tests, one process): always the caller's clock.
  sqlite: 'CAST($2 AS INTEGER)',
} as const;
const INTERVAL = 'CAST($3 AS BIGINT)';
const PERIOD = 'CAST($4 AS BIGINT)';
// Inside DO UPDATE the call's time is excluded.at. A stored time more than two periods ahead (the
// clock went back) counts from now rather than locking the key out.
const BASE = `(CASE WHEN api_rate.tat > excluded.at AND api_rate.tat <= excluded.at + 2 * ${PERIOD}
  THEN api_rate.tat ELSE excluded.at END)`;
const FITS = `${BASE} + ${INTERVAL} - excluded.at <= ${PERIOD}`;
const takeSql = (dialect: Queryable['dialect']) => `
  INSERT INTO api_rate (key_id, tat, allowed, at)
  SELECT $1, t.now + ${INTERVAL}, 1, t.now FROM (SELECT ${DB_NOW[dialect]} AS now) t WHERE true
  ON CONFLICT (key_id) DO UPDATE SET
    tat = CASE WHEN ${FITS} THEN ${BASE} + ${INTERVAL} ELSE api_rate.tat END,
    allowed = CASE WHEN ${FITS} THEN 1 ELSE 0 END,
    at = excluded.at
  RETURNING tat, allowed, at`;

/**
 * `callerClock`: time each call by the `now` it is given (a movable clock in development and
 * tests) instead of the database's clock.
 */
export function createSharedRateLimiter(db: Queryable, options: { callerClock?: boolean } = {}): RateLimiter {
  const callerClock = options.callerClock === true || db.dialect === 'sqlite';
  const take = db.prepare(takeSql(db.dialect));
  const sweep = db.prepare('DELETE FROM api_rate WHERE tat < $1');
  let sweptAt = 0;
  return {
    async check(key, limitPerMinute, now) {
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now;
        await sweep.run(now - PERIOD_MS);
      }
      const interval = Math.ceil(PERIOD_MS / limitPerMinute);
      const row = await take.get<{ tat: number; allowed: number; at: number }>(
        key,
        callerClock ? now : null,
        interval,
        PERIOD_MS,
      );
      if (!row) throw new Error('the rate limit was not counted');
      const at = Number(row.at);
      return decisionAfter(Number(row.allowed) === 1, Number(row.tat), at, limitPerMinute, interval);
    },
  };
}
