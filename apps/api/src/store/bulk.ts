import { isSyncedPlatform } from '@review-desk/shared';
import type { ReviewTotals } from './analytics.ts';
import type { Db } from './db.ts';
import {
  emailKey,
  emptyRequestDelta,
  type RequestRollupDelta,
  type RequestRow,
  requestContribution,
  requestStore,
} from './requests.ts';
import { type NewReview, REVIEW_WRITES } from './reviews.ts';
import { dayOf } from './time.ts';

// The fast path for large data (demo seed, benchmarks, imports): plain inserts in one
// transaction, with counters and roll-ups summed in memory and written once per key at the end.
// The result is exactly what the one-by-one path produces (checked by rollupDrift in tests).

export type BulkRequest = Omit<
  RequestRow,
  'id' | 'warning' | 'error' | 'api_key_id' | 'opted_out_at' | 'status' | 'failed_leg'
> & {
  status: 'sent' | 'failed';
  failed_leg?: 'sms' | 'email' | null;
  warning?: string | null;
  error?: string | null;
};

/** A day's roll-up columns, summed in memory before they are written (the same columns as the totals). */
type ReviewDelta = ReviewTotals;

function emptyReviewDelta(): ReviewDelta {
  return {
    n: 0,
    rating_sum: 0,
    pending: 0,
    responded: 0,
    ignored: 0,
    r1: 0,
    r2: 0,
    r3: 0,
    r4: 0,
    r5: 0,
    synced_n: 0,
    synced_rating_sum: 0,
  };
}

/**
 * Runs a large load with the table's secondary indexes dropped and rebuilt afterwards: building
 * an index from sorted data is several times faster than a million random b-tree inserts. All in
 * the caller's transaction, so other connections never see the table without its indexes.
 */
export function withIndexesRebuilt<T>(db: Db, table: string, fn: () => T): T {
  return db.transaction(() => {
    const indexes = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
      )
      .all(table) as { name: string; sql: string }[];
    for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
    const result = fn();
    for (const index of indexes) db.exec(index.sql);
    return result;
  });
}

/** Inserts requests in finished states; returns their row ids in input order. */
export function bulkInsertRequests(db: Db, rows: Iterable<BulkRequest>): number[] {
  const insert = db.prepare(`INSERT INTO requests
    (public_id, token, business_id, channel, customer_name, customer_phone, customer_email, email_key, status,
     failed_leg, warning, error, created_at, clicked_at, feedback_at, handoff_at, completed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const store = requestStore(db);
  const ids: number[] = [];
  db.transaction(() => {
    const deltas = new Map<string, { businessId: number; day: number; d: RequestRollupDelta }>();
    for (const r of rows) {
      const result = insert.run(
        r.public_id,
        r.token,
        r.business_id,
        r.channel,
        r.customer_name,
        r.customer_phone,
        r.customer_email,
        emailKey(r.customer_email),
        r.status,
        r.failed_leg ?? null,
        r.warning ?? null,
        r.error ?? null,
        r.created_at,
        r.clicked_at,
        r.feedback_at,
        r.handoff_at,
        r.completed_at,
      );
      ids.push(Number(result.lastInsertRowid));
      const day = dayOf(r.created_at);
      const key = `${r.business_id}:${day}`;
      let entry = deltas.get(key);
      if (!entry) {
        entry = { businessId: r.business_id, day, d: emptyRequestDelta() };
        deltas.set(key, entry);
      }
      requestContribution(r, entry.d);
    }
    for (const { businessId, day, d } of deltas.values()) store.applyRollup(businessId, day, d);
  });
  return ids;
}

/** Inserts reviews and their counters/roll-ups; returns the number inserted. */
export function bulkInsertReviews(db: Db, rows: Iterable<NewReview>): number {
  const insert = db.prepare(REVIEW_WRITES.insert);
  const count = db.prepare(REVIEW_WRITES.count);
  const daily = db.prepare(REVIEW_WRITES.daily);
  const dailyPlatform = db.prepare(REVIEW_WRITES.dailyPlatform);
  let inserted = 0;
  db.transaction(() => {
    const counts = new Map<string, { businessId: number; status: string; rating: number; n: number }>();
    const days = new Map<string, { businessId: number; day: number; d: ReviewDelta }>();
    const platforms = new Map<string, { businessId: number; day: number; platform: string; n: number }>();
    for (const r of rows) {
      insert.run(
        r.businessId,
        r.rating,
        r.status,
        r.authorName,
        r.text,
        r.reviewAt,
        r.responseText,
        r.platform,
        r.externalId,
        r.requestId,
        r.createdAt,
      );
      inserted++;
      const countKey = `${r.businessId}:${r.status}:${r.rating}`;
      const c = counts.get(countKey);
      if (c) c.n++;
      else counts.set(countKey, { businessId: r.businessId, status: r.status, rating: r.rating, n: 1 });

      const day = dayOf(r.reviewAt);
      const dayKey = `${r.businessId}:${day}`;
      let entry = days.get(dayKey);
      if (!entry) {
        entry = { businessId: r.businessId, day, d: emptyReviewDelta() };
        days.set(dayKey, entry);
      }
      const d = entry.d;
      d.n++;
      d.rating_sum += r.rating;
      d[r.status]++;
      d[`r${r.rating}` as 'r1']++;
      if (isSyncedPlatform(r.platform)) {
        d.synced_n++;
        d.synced_rating_sum += r.rating;
      }
      const platformKey = `${dayKey}:${r.platform}`;
      const p = platforms.get(platformKey);
      if (p) p.n++;
      else platforms.set(platformKey, { businessId: r.businessId, day, platform: r.platform, n: 1 });
    }
    for (const c of counts.values()) count.run(c.businessId, c.status, c.rating, c.n);
    for (const { businessId, day, d } of days.values()) daily.run({ business_id: businessId, day, ...d });
    for (const p of platforms.values()) dailyPlatform.run(p.businessId, p.day, p.platform, p.n);
  });
  return inserted;
}

// Expected roll-ups computed from the base tables: the reference the maintained ones must equal.
const EXPECTED = {
  review_counts: `SELECT business_id, status, rating, count(*) AS n FROM reviews
    GROUP BY business_id, status, rating`,
  review_daily: `SELECT business_id, review_at / 86400000 AS day, count(*) AS n, sum(rating) AS rating_sum,
    sum(status = 'pending') AS pending, sum(status = 'responded') AS responded, sum(status = 'ignored') AS ignored,
    sum(rating = 1) AS r1, sum(rating = 2) AS r2, sum(rating = 3) AS r3, sum(rating = 4) AS r4, sum(rating = 5) AS r5,
    sum(platform != 'direct') AS synced_n, sum(CASE WHEN platform != 'direct' THEN rating ELSE 0 END) AS synced_rating_sum
    FROM reviews GROUP BY business_id, day`,
  review_daily_platform: `SELECT business_id, review_at / 86400000 AS day, platform, count(*) AS n FROM reviews
    GROUP BY business_id, day, platform`,
  request_daily: `SELECT business_id, created_at / 86400000 AS day,
    sum(status != 'sending') AS total, sum(status = 'sent') AS sent, sum(status = 'failed') AS failed,
    sum(status = 'sent' AND clicked_at IS NOT NULL) AS clicked,
    sum(status = 'sent' AND completed_at IS NOT NULL) AS completed,
    sum(status = 'sent' AND feedback_at IS NOT NULL) AS feedback,
    sum(status = 'sent' AND handoff_at IS NOT NULL) AS handoffs,
    sum(status != 'sending' AND channel = 'sms') AS sms, sum(status != 'sending' AND channel = 'email') AS email,
    sum(status != 'sending' AND channel = 'both') AS both, sum(status != 'sending' AND channel = 'link') AS link
    FROM requests GROUP BY business_id, day`,
} as const;

const KEYS: Record<keyof typeof EXPECTED, string[]> = {
  review_counts: ['business_id', 'status', 'rating'],
  review_daily: ['business_id', 'day'],
  review_daily_platform: ['business_id', 'day', 'platform'],
  request_daily: ['business_id', 'day'],
};

/** Recomputes every counter and roll-up from the base tables (repair tool; also after raw SQL loads). */
export function rebuildRollups(db: Db): void {
  db.transaction(() => {
    for (const [table, query] of Object.entries(EXPECTED)) {
      db.exec(`DELETE FROM ${table}`);
      db.exec(`INSERT INTO ${table} ${query}`);
    }
  });
}

/**
 * Differences between the maintained counters/roll-ups and a brute-force recount of the base
 * tables; empty when they agree. Rows that are all zero count as absent.
 */
export function rollupDrift(db: Db): string[] {
  const drift: string[] = [];
  for (const [table, query] of Object.entries(EXPECTED) as [keyof typeof EXPECTED, string][]) {
    const keyOf = (row: Record<string, unknown>) => KEYS[table].map((k) => String(row[k])).join('|');
    const normalise = (row: Record<string, unknown>) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(row)
            .filter(([k]) => !KEYS[table].includes(k))
            .map(([k, v]) => [k, Number(v)]),
        ),
      );
    const isZero = (row: Record<string, unknown>) =>
      Object.entries(row).every(([k, v]) => KEYS[table].includes(k) || Number(v) === 0);
    const expected = new Map<string, string>();
    for (const row of db.prepare(query).all() as Record<string, unknown>[]) {
      if (!isZero(row)) expected.set(keyOf(row), normalise(row));
    }
    const columns = (db.prepare(query).columns() as { name: string }[]).map((c) => c.name).join(', ');
    const stored = new Map<string, string>();
    for (const row of db.prepare(`SELECT ${columns} FROM ${table}`).all() as Record<string, unknown>[]) {
      if (!isZero(row)) stored.set(keyOf(row), normalise(row));
    }
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
