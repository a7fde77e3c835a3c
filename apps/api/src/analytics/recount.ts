import type { Queryable } from '@review-desk/server/db/types';
import { DAY_MS } from '@review-desk/shared';
import { REQUEST_DAILY_SUMS, REQUEST_ROLLUP_COLUMN_LIST } from './request-rollup.ts';

// The counters and daily roll-ups recounted from the base tables: the reference the maintained ones
// must equal (`cli rollups check`, the tests), and the repair (`cli rollups rebuild`).

// Expected roll-ups computed from the base tables: the reference the maintained ones must equal.
const EXPECTED = {
  review_counts: `SELECT business_id, status, rating, count(*) AS n FROM reviews
    GROUP BY business_id, status, rating`,
  review_daily: `SELECT business_id, review_at / ${DAY_MS} AS day, count(*) AS n, sum(rating) AS rating_sum,
    count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'responded') AS responded,
    count(*) FILTER (WHERE status = 'ignored') AS ignored, count(*) FILTER (WHERE rating = 1) AS r1,
    count(*) FILTER (WHERE rating = 2) AS r2, count(*) FILTER (WHERE rating = 3) AS r3,
    count(*) FILTER (WHERE rating = 4) AS r4, count(*) FILTER (WHERE rating = 5) AS r5,
    count(*) FILTER (WHERE platform <> 'direct') AS synced_n,
    coalesce(sum(rating) FILTER (WHERE platform <> 'direct'), 0) AS synced_rating_sum
    FROM reviews GROUP BY business_id, review_at / ${DAY_MS}`,
  review_daily_platform: `SELECT business_id, review_at / ${DAY_MS} AS day, platform, count(*) AS n FROM reviews
    GROUP BY business_id, review_at / ${DAY_MS}, platform`,
  request_daily: `SELECT business_id, created_at / ${DAY_MS} AS day,
    count(*) FILTER (WHERE status <> 'sending') AS total, count(*) FILTER (WHERE status = 'sent') AS sent,
    count(*) FILTER (WHERE status = 'failed') AS failed,
    count(*) FILTER (WHERE status = 'sent' AND clicked_at IS NOT NULL) AS clicked,
    count(*) FILTER (WHERE status = 'sent' AND completed_at IS NOT NULL) AS completed,
    count(*) FILTER (WHERE status = 'sent' AND feedback_at IS NOT NULL) AS feedback,
    count(*) FILTER (WHERE status = 'sent' AND handoff_at IS NOT NULL) AS handoffs,
    count(*) FILTER (WHERE status <> 'sending' AND channel = 'sms') AS sms,
    count(*) FILTER (WHERE status <> 'sending' AND channel = 'email') AS email,
    count(*) FILTER (WHERE status <> 'sending' AND channel = 'both') AS "both",
    count(*) FILTER (WHERE status <> 'sending' AND channel = 'link') AS link
    FROM requests GROUP BY business_id, created_at / ${DAY_MS}`,
} as const;

const KEYS: Record<keyof typeof EXPECTED, string[]> = {
  review_counts: ['business_id', 'status', 'rating'],
  review_daily: ['business_id', 'day'],
  review_daily_platform: ['business_id', 'day', 'platform'],
  request_daily: ['business_id', 'day'],
};

/** How a table's rows are written by a rebuild and read back, where not as they are. */
const AS_STORED: Partial<Record<keyof typeof EXPECTED, { columns: string; read: string }>> = {
  // A day's slots add up to the day (analytics/request-rollup.ts); a rebuild writes slot 0.
  request_daily: {
    columns: `(business_id, day, ${REQUEST_ROLLUP_COLUMN_LIST})`,
    read: `SELECT business_id, day, ${REQUEST_DAILY_SUMS} FROM request_daily GROUP BY business_id, day`,
  },
};

/** Recomputes every counter and roll-up from the base tables (repair tool; also after raw SQL loads). */
export function rebuildRollups(db: Queryable): Promise<void> {
  return db.transaction(async (tx) => {
    for (const [table, query] of Object.entries(EXPECTED)) {
      await tx.exec(`DELETE FROM ${table}`);
      await tx.run(
        `INSERT INTO ${table} ${AS_STORED[table as keyof typeof EXPECTED]?.columns ?? ''} ${query}`,
      );
    }
  });
}

/**
 * Differences between the maintained counters/roll-ups and a brute-force recount of the base
 * tables; empty when they agree. Rows that are all zero count as absent.
 */
export async function rollupDrift(db: Queryable): Promise<string[]> {
  const drift: string[] = [];
  for (const [table, query] of Object.entries(EXPECTED) as [keyof typeof EXPECTED, string][]) {
    const keyOf = (row: Record<string, unknown>) => KEYS[table].map((k) => String(row[k])).join('|');
    const normalise = (row: Record<string, unknown>) =>
      JSON.stringify(
        Object.entries(row)
          .filter(([k]) => !KEYS[table].includes(k))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => [k, Number(v)]),
      );
    const isZero = (row: Record<string, unknown>) =>
      Object.entries(row).every(([k, v]) => KEYS[table].includes(k) || Number(v) === 0);
    const rows = async (sql: string) => {
      const found = new Map<string, string>();
      for (const row of await db.all(sql)) if (!isZero(row)) found.set(keyOf(row), normalise(row));
      return found;
    };
    // The roll-up tables have exactly the recount's columns.
    const expected = await rows(query);
    const stored = await rows(AS_STORED[table]?.read ?? `SELECT * FROM ${table}`);
    for (const [key, value] of expected) {
      if (stored.get(key) !== value)
        drift.push(`${table}[${key}]: expected ${value}, stored ${stored.get(key)}`);
    }
    for (const [key, value] of stored) {
      if (!expected.has(key)) drift.push(`${table}[${key}]: expected nothing, stored ${value}`);
    }
  }
  return drift;
}
