import type { Queryable } from '@review-desk/server/db/types';
import { isSyncedPlatform, type ReviewOrder, type ReviewStatus } from '@review-desk/shared';
import type { ReviewTotals } from '../analytics/store.ts';
import { dayOf } from '../store/time.ts';
import { type ReviewFilter, reviewPages } from './paging.ts';
import type { WebsiteColumns } from './website-store.ts';

export type { ReviewFilter } from './paging.ts';

export type ReviewRow = {
  id: number;
  business_id: number;
  rating: number;
  status: ReviewStatus;
  author_name: string | null;
  text: string | null;
  review_at: number;
  response_text: string | null;
  platform: string;
  external_id: string | null;
  request_id: number | null;
  created_at: number;
} & WebsiteColumns;

export type NewReview = {
  businessId: number;
  rating: number;
  status: ReviewStatus;
  authorName: string | null;
  text: string | null;
  reviewAt: number;
  responseText: string | null;
  platform: string;
  externalId: string | null;
  requestId: number | null;
  createdAt: number;
};

/** A row of the list (review-pages.ts reads LIST_COLUMNS). */
export type ReviewListRow = Pick<
  ReviewRow,
  'id' | 'rating' | 'status' | 'author_name' | 'text' | 'review_at' | 'response_text' | 'platform'
>;

/** A review's columns as it is written, in the order of `reviewValues`. */
export const REVIEW_COLUMNS = [
  'business_id',
  'rating',
  'status',
  'author_name',
  'text',
  'review_at',
  'response_text',
  'platform',
  'external_id',
  'request_id',
  'created_at',
] as const;

/** The writes of a new review and its counters and daily roll-ups: one copy, for one review and for a load of many. */
export const REVIEW_WRITES = {
  insert: `INSERT INTO reviews (${REVIEW_COLUMNS.join(', ')})
    VALUES (${REVIEW_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
  count: `INSERT INTO review_counts (business_id, status, rating, n) VALUES ($1, $2, $3, $4)
    ON CONFLICT (business_id, status, rating) DO UPDATE SET n = review_counts.n + excluded.n`,
  daily: `INSERT INTO review_daily
    (business_id, day, n, rating_sum, pending, responded, ignored, r1, r2, r3, r4, r5, synced_n, synced_rating_sum)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
    ON CONFLICT (business_id, day) DO UPDATE SET
      n = review_daily.n + excluded.n, rating_sum = review_daily.rating_sum + excluded.rating_sum,
      pending = review_daily.pending + excluded.pending, responded = review_daily.responded + excluded.responded,
      ignored = review_daily.ignored + excluded.ignored, r1 = review_daily.r1 + excluded.r1,
      r2 = review_daily.r2 + excluded.r2, r3 = review_daily.r3 + excluded.r3, r4 = review_daily.r4 + excluded.r4,
      r5 = review_daily.r5 + excluded.r5, synced_n = review_daily.synced_n + excluded.synced_n,
      synced_rating_sum = review_daily.synced_rating_sum + excluded.synced_rating_sum`,
  dailyPlatform: `INSERT INTO review_daily_platform (business_id, day, platform, n)
    VALUES ($1, $2, $3, $4) ON CONFLICT (business_id, day, platform) DO UPDATE SET n = review_daily_platform.n + excluded.n`,
} as const;

/** The values of REVIEW_WRITES.insert (and of a load's rows, REVIEW_COLUMNS), in column order. */
export function reviewValues(r: NewReview) {
  return [
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
  ];
}

/** The values of REVIEW_WRITES.daily for one day's share, in its column order. */
export function reviewDailyValues(businessId: number, day: number, d: ReviewTotals): number[] {
  return [
    businessId,
    day,
    d.n,
    d.rating_sum,
    d.pending,
    d.responded,
    d.ignored,
    d.r1,
    d.r2,
    d.r3,
    d.r4,
    d.r5,
    d.synced_n,
    d.synced_rating_sum,
  ];
}

/** `anchorFrom`: from which offset a page starts at its day (review-pages.ts; tests lower it). */
export function reviewStore(db: Queryable, options: { anchorFrom?: number } = {}) {
  const insert = db.prepare(REVIEW_WRITES.insert);
  const byId = db.prepare('SELECT * FROM reviews WHERE id = $1');
  const byRequest = db.prepare('SELECT * FROM reviews WHERE request_id = $1');
  const byExternal = db.prepare(
    'SELECT * FROM reviews WHERE business_id = $1 AND platform = $2 AND external_id = $3',
  );
  const count = db.prepare(REVIEW_WRITES.count);
  const daily = db.prepare(REVIEW_WRITES.daily);
  const dailyPlatform = db.prepare(REVIEW_WRITES.dailyPlatform);
  const change = db.prepare(
    'UPDATE reviews SET rating = $1, status = $2, response_text = $3 WHERE id = $4 RETURNING *',
  );

  type Prepared = ReturnType<Queryable['prepare']>;
  const totals = new Map<string, Prepared>();
  /**
   * The total's statement and arguments. Counters (at most 15 rows) answer every filter but a
   * platform's, which no counter keeps: those count the index range of their reviews
   * (reviews_by_platform with a status: the inbox's, as many as are waiting there).
   */
  function totalOf(
    businessId: number,
    filter: ReviewFilter,
  ): { statement: Prepared; args: (string | number)[] } {
    const args: (string | number)[] = [businessId];
    const where: string[] = [];
    if (filter.status) {
      args.push(filter.status);
      where.push(`AND status = $${args.length}`);
    }
    if (filter.platform) {
      args.push(filter.platform);
      where.push(`AND platform = $${args.length}`);
    }
    if (filter.minRating !== undefined) {
      args.push(filter.minRating);
      where.push(`AND rating >= $${args.length}`);
    }
    if (filter.maxRating !== undefined) {
      args.push(filter.maxRating);
      where.push(`AND rating <= $${args.length}`);
    }
    const sql = filter.platform
      ? `SELECT count(*) AS total FROM reviews WHERE business_id = $1 ${where.join(' ')}`
      : `SELECT coalesce(sum(n), 0) AS total FROM review_counts WHERE business_id = $1 ${where.join(' ')}`;
    let statement = totals.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      totals.set(sql, statement);
    }
    return { statement, args };
  }

  const pageFrom = reviewPages(db, options.anchorFrom);

  /** Adds (sign 1) or removes (sign -1) one review's share of the counters and roll-ups. */
  async function account(
    r: Pick<ReviewRow, 'business_id' | 'status' | 'rating' | 'review_at' | 'platform'>,
    sign: 1 | -1,
  ): Promise<void> {
    await count.run(r.business_id, r.status, r.rating, sign);
    const synced = isSyncedPlatform(r.platform);
    await daily.run(
      ...reviewDailyValues(r.business_id, dayOf(r.review_at), {
        n: sign,
        rating_sum: sign * r.rating,
        pending: r.status === 'pending' ? sign : 0,
        responded: r.status === 'responded' ? sign : 0,
        ignored: r.status === 'ignored' ? sign : 0,
        r1: r.rating === 1 ? sign : 0,
        r2: r.rating === 2 ? sign : 0,
        r3: r.rating === 3 ? sign : 0,
        r4: r.rating === 4 ? sign : 0,
        r5: r.rating === 5 ? sign : 0,
        synced_n: synced ? sign : 0,
        synced_rating_sum: synced ? sign * r.rating : 0,
      }),
    );
    await dailyPlatform.run(r.business_id, dayOf(r.review_at), r.platform, sign);
  }

  /**
   * Changes a review's rating, status and reply, moving it between counters; call inside a
   * transaction. Answers the review as it is now.
   */
  async function changeReview(
    id: number,
    to: { rating: number; status: ReviewStatus; responseText: string | null },
  ): Promise<ReviewRow> {
    const before = await byId.get<ReviewRow>(id);
    if (!before) throw new Error(`review ${id} not found`);
    await account(before, -1);
    const after = (await change.get<ReviewRow>(to.rating, to.status, to.responseText, id))!;
    await account(after, 1);
    return after;
  }

  return {
    /** Inserts one review and updates its counters and roll-ups; call inside a transaction. */
    async insert(r: NewReview): Promise<ReviewRow> {
      const row = (await insert.get<ReviewRow>(...reviewValues(r)))!;
      await account(row, 1);
      return row;
    },
    byId: (id: number) => byId.get<ReviewRow>(id),
    byRequest: (requestId: number) => byRequest.get<ReviewRow>(requestId),
    byExternal: (businessId: number, platform: string, externalId: string) =>
      byExternal.get<ReviewRow>(businessId, platform, externalId),
    /**
     * Changes a review's rating, status and reply, moving it between counters; call inside a
     * transaction. Answers the review as it is now.
     */
    change: changeReview,
    /** Changes a review's status and reply (its rating kept); call inside a transaction. */
    async setStatus(id: number, status: ReviewStatus, responseText: string | null): Promise<ReviewRow> {
      const before = await byId.get<ReviewRow>(id);
      if (!before) throw new Error(`review ${id} not found`);
      return changeReview(id, { rating: before.rating, status, responseText });
    },
    /** Matching reviews, from the counters (a platform's: its index range, see totalOf). */
    async total(businessId: number, filter: ReviewFilter): Promise<number> {
      const { statement, args } = totalOf(businessId, filter);
      return Number((await statement.get<{ total: number }>(...args))!.total);
    },
    /**
     * One page (0-based offset) of the list order. Given the filter's total, a page past the
     * middle is read from the other end with the mirrored offset, so the last page costs what
     * the first does; without it, from the newest end.
     */
    async page(
      businessId: number,
      filter: ReviewFilter,
      offset: number,
      limit: number,
      total?: number,
      order: ReviewOrder = 'newest',
    ): Promise<ReviewListRow[]> {
      if ((total !== undefined && offset >= total) || limit <= 0) return [];
      if (order === 'oldest') {
        // Oldest first is the newest-first order read from its other end, and turned round.
        const all = total ?? (await this.total(businessId, filter));
        const end = all - offset;
        const start = Math.max(0, end - limit);
        return (await this.page(businessId, filter, start, end - start, all)).reverse();
      }
      if (total === undefined || offset <= total / 2)
        return pageFrom<ReviewListRow>(businessId, filter, 'DESC', offset, limit);
      const end = Math.min(total, offset + limit); // exclusive, in newest-first positions
      return pageFrom<ReviewListRow>(businessId, filter, 'ASC', total - end, end - offset);
    },
    account,
  };
}
