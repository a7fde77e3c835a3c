import { batchSize, insertMany, insertSql, quoteIdentifier } from '@review-desk/server/db/insert-many';
import type { Queryable } from '@review-desk/server/db/types';
import { isSyncedPlatform } from '@review-desk/shared';
import {
  emptyRequestDelta,
  type RequestRollupDelta,
  requestContribution,
} from '../analytics/request-rollup.ts';
import type { ReviewTotals } from '../analytics/store.ts';
import { emailKey, type RequestRow, requestStore } from '../requests/store.ts';
import {
  type NewReview,
  REVIEW_COLUMNS,
  REVIEW_WRITES,
  reviewDailyValues,
  reviewValues,
} from '../reviews/store.ts';
import { dayOf } from '../store/time.ts';

// The fast path for large data (demo seed, benchmarks, imports): plain inserts in one
// transaction, with counters and roll-ups summed in memory and written once per key at the end.
// The result is exactly what the one-by-one path produces (checked by rollupDrift in tests).

export type LoadedRequest = Omit<
  RequestRow,
  'id' | 'warning' | 'error' | 'api_key_id' | 'opted_out_at' | 'status' | 'failed_leg'
> & {
  status: 'sent' | 'failed';
  failed_leg?: 'sms' | 'email' | null;
  warning?: string | null;
  error?: string | null;
};

/** A day's roll-up columns, summed in memory before they are written (the same columns as the totals). */
function emptyReviewDelta(): ReviewTotals {
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
export function withIndexesRebuilt<T>(db: Queryable, table: string, fn: () => Promise<T>): Promise<T> {
  // Indexes a constraint owns (primary keys, UNIQUE) stay: dropping them would drop the rule.
  const list =
    db.dialect === 'sqlite'
      ? "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = $1 AND sql IS NOT NULL"
      : `SELECT indexname AS name, indexdef AS sql FROM pg_indexes i WHERE tablename = $1
          AND schemaname = current_schema()
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`;
  return db.transaction(async (tx) => {
    const indexes = await tx.all<{ name: string; sql: string }>(list, table);
    for (const index of indexes) await tx.exec(`DROP INDEX ${quoteIdentifier(index.name)}`);
    const result = await fn();
    for (const index of indexes) await tx.exec(index.sql);
    return result;
  });
}

/** Rows of an iterable in arrays of `size`. */
function* batches<T>(rows: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const REQUEST_COLUMNS = [
  'public_id',
  'token',
  'business_id',
  'channel',
  'customer_name',
  'customer_phone',
  'customer_email',
  'email_key',
  'status',
  'failed_leg',
  'warning',
  'error',
  'created_at',
  'clicked_at',
  'feedback_at',
  'handoff_at',
  'completed_at',
] as const;

type DayEntry<D> = { businessId: number; day: number; d: D };

/** A business's roll-up delta for a day, started empty on the day's first row. */
function dayEntry<D>(entries: Map<string, DayEntry<D>>, businessId: number, day: number, empty: () => D) {
  const key = `${businessId}:${day}`;
  let entry = entries.get(key);
  if (!entry) {
    entry = { businessId, day, d: empty() };
    entries.set(key, entry);
  }
  return entry;
}

/** Inserts requests in finished states; returns their row ids in input order. */
export function loadRequests(db: Queryable, rows: Iterable<LoadedRequest>): Promise<number[]> {
  const store = requestStore(db);
  return db.transaction(async (tx) => {
    const ids: number[] = [];
    const deltas = new Map<string, DayEntry<RequestRollupDelta>>();
    // SQLite: one row per statement (in process, and its binding slows with many placeholders).
    const perBatch = tx.dialect === 'sqlite' ? 1 : batchSize(tx, REQUEST_COLUMNS.length, 500);
    for (const batch of batches(rows, perBatch)) {
      const values = batch.map((r) => [
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
      ]);
      // RETURNING names each row's id by its public id: no engine promises RETURNING's order.
      const returned = await tx.all<{ id: number; public_id: string }>(
        `${insertSql('requests', REQUEST_COLUMNS, batch.length)} RETURNING id, public_id`,
        ...values.flat(),
      );
      const idOf = new Map(returned.map((r) => [r.public_id, Number(r.id)]));
      for (const r of batch) {
        ids.push(idOf.get(r.public_id)!);
        const day = dayOf(r.created_at);
        const entry = dayEntry(deltas, r.business_id, day, emptyRequestDelta);
        requestContribution(r, entry.d);
      }
    }
    for (const { businessId, day, d } of deltas.values()) await store.applyRollup(businessId, day, d);
    return ids;
  });
}

/** Inserts reviews and their counters/roll-ups; returns the number inserted. */
export function loadReviews(db: Queryable, rows: Iterable<NewReview>): Promise<number> {
  return db.transaction(async (tx) => {
    let inserted = 0;
    const counts = new Map<string, { businessId: number; status: string; rating: number; n: number }>();
    const days = new Map<string, DayEntry<ReviewTotals>>();
    const platforms = new Map<string, { businessId: number; day: number; platform: string; n: number }>();
    for (const batch of batches(rows, batchSize(tx, REVIEW_COLUMNS.length, 1_000))) {
      inserted += await insertMany(tx, 'reviews', REVIEW_COLUMNS, batch.map(reviewValues));
      for (const r of batch) {
        const countKey = `${r.businessId}:${r.status}:${r.rating}`;
        const c = counts.get(countKey);
        if (c) c.n++;
        else counts.set(countKey, { businessId: r.businessId, status: r.status, rating: r.rating, n: 1 });

        const day = dayOf(r.reviewAt);
        const d = dayEntry(days, r.businessId, day, emptyReviewDelta).d;
        d.n++;
        d.rating_sum += r.rating;
        d[r.status]++;
        d[`r${r.rating}` as 'r1']++;
        if (isSyncedPlatform(r.platform)) {
          d.synced_n++;
          d.synced_rating_sum += r.rating;
        }
        const platformKey = `${r.businessId}:${day}:${r.platform}`;
        const p = platforms.get(platformKey);
        if (p) p.n++;
        else platforms.set(platformKey, { businessId: r.businessId, day, platform: r.platform, n: 1 });
      }
    }
    for (const c of counts.values()) await tx.run(REVIEW_WRITES.count, c.businessId, c.status, c.rating, c.n);
    for (const { businessId, day, d } of days.values())
      await tx.run(REVIEW_WRITES.daily, ...reviewDailyValues(businessId, day, d));
    for (const p of platforms.values())
      await tx.run(REVIEW_WRITES.dailyPlatform, p.businessId, p.day, p.platform, p.n);
    return inserted;
  });
}
