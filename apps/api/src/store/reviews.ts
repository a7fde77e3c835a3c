import { isSyncedPlatform, type ReviewStatus } from '@review-desk/shared';
import type { Db } from './db.ts';
import { dayOf } from './time.ts';

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
};

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

export type ReviewFilter = { status?: ReviewStatus | undefined; minRating?: number | undefined };

const COLUMNS = 'id, rating, status, author_name, text, review_at, response_text, platform';
export type ReviewListRow = Pick<
  ReviewRow,
  'id' | 'rating' | 'status' | 'author_name' | 'text' | 'review_at' | 'response_text' | 'platform'
>;

/**
 * The list order is newest first, ties broken by the highest id (stable across pages). Each filter
 * shape reads the covering index whose prefix is its equality columns, so the rows come in order
 * without a sort and the offset is skipped inside the index without touching the table. The
 * choice is pinned with INDEXED BY: the planner cannot know which shape is cheap at a million rows.
 */
function listShape(filter: ReviewFilter): { index: string; where: string; args: (string | number)[] } {
  const { status, minRating } = filter;
  const exact5 = minRating === 5;
  const rating = minRating !== undefined && minRating > 1 ? minRating : undefined;
  if (status && exact5)
    return { index: 'reviews_by_status_rating', where: 'AND status = ? AND rating = 5', args: [status] };
  if (status && rating)
    return { index: 'reviews_by_status', where: 'AND status = ? AND rating >= ?', args: [status, rating] };
  if (status) return { index: 'reviews_by_status', where: 'AND status = ?', args: [status] };
  if (exact5) return { index: 'reviews_by_rating', where: 'AND rating = 5', args: [] };
  if (rating) return { index: 'reviews_list', where: 'AND rating >= ?', args: [rating] };
  return { index: 'reviews_list', where: '', args: [] };
}

/** The writes of a new review and its counters and daily roll-ups: one copy, for one review and in bulk. */
export const REVIEW_WRITES = {
  insert: `INSERT INTO reviews
    (business_id, rating, status, author_name, text, review_at, response_text, platform, external_id, request_id, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  count: `INSERT INTO review_counts (business_id, status, rating, n) VALUES (?, ?, ?, ?)
    ON CONFLICT (business_id, status, rating) DO UPDATE SET n = n + excluded.n`,
  daily: `INSERT INTO review_daily
    (business_id, day, n, rating_sum, pending, responded, ignored, r1, r2, r3, r4, r5, synced_n, synced_rating_sum)
    VALUES (:business_id, :day, :n, :rating_sum, :pending, :responded, :ignored, :r1, :r2, :r3, :r4, :r5, :synced_n, :synced_rating_sum)
    ON CONFLICT (business_id, day) DO UPDATE SET
      n = n + excluded.n, rating_sum = rating_sum + excluded.rating_sum,
      pending = pending + excluded.pending, responded = responded + excluded.responded,
      ignored = ignored + excluded.ignored, r1 = r1 + excluded.r1, r2 = r2 + excluded.r2,
      r3 = r3 + excluded.r3, r4 = r4 + excluded.r4, r5 = r5 + excluded.r5,
      synced_n = synced_n + excluded.synced_n, synced_rating_sum = synced_rating_sum + excluded.synced_rating_sum`,
  dailyPlatform: `INSERT INTO review_daily_platform (business_id, day, platform, n)
    VALUES (?, ?, ?, ?) ON CONFLICT (business_id, day, platform) DO UPDATE SET n = n + excluded.n`,
} as const;

export function reviewStore(db: Db) {
  const insert = db.prepare(REVIEW_WRITES.insert);
  const byId = db.prepare('SELECT * FROM reviews WHERE id = ?');
  const byRequest = db.prepare('SELECT * FROM reviews WHERE request_id = ?');
  const byExternal = db.prepare(
    'SELECT id FROM reviews WHERE business_id = ? AND platform = ? AND external_id = ?',
  );
  const count = db.prepare(REVIEW_WRITES.count);
  const daily = db.prepare(REVIEW_WRITES.daily);
  const dailyPlatform = db.prepare(REVIEW_WRITES.dailyPlatform);
  const setStatus = db.prepare('UPDATE reviews SET status = ?, response_text = ? WHERE id = ?');

  const totals = new Map<string, ReturnType<Db['prepare']>>();
  function totalStatement(filter: ReviewFilter) {
    const key = `${filter.status ? 's' : ''}${filter.minRating !== undefined ? 'r' : ''}`;
    let statement = totals.get(key);
    if (!statement) {
      statement = db.prepare(
        `SELECT coalesce(sum(n), 0) AS total FROM review_counts WHERE business_id = ?
          ${filter.status ? 'AND status = ?' : ''} ${filter.minRating !== undefined ? 'AND rating >= ?' : ''}`,
      );
      totals.set(key, statement);
    }
    return statement;
  }

  const pages = new Map<string, { desc: ReturnType<Db['prepare']>; asc: ReturnType<Db['prepare']> }>();
  function pageStatements(filter: ReviewFilter) {
    const shape = listShape(filter);
    const key = `${shape.index}|${shape.where}`;
    let statements = pages.get(key);
    if (!statements) {
      const page = (dir: 'ASC' | 'DESC') =>
        db.prepare(`SELECT ${COLUMNS} FROM reviews WHERE id IN (
            SELECT id FROM reviews INDEXED BY ${shape.index} WHERE business_id = ? ${shape.where}
            ORDER BY review_at ${dir}, id ${dir} LIMIT ? OFFSET ?)
          ORDER BY review_at DESC, id DESC`);
      statements = { desc: page('DESC'), asc: page('ASC') };
      pages.set(key, statements);
    }
    return { ...statements, args: shape.args };
  }

  /** Adds (sign 1) or removes (sign -1) one review's share of the counters and roll-ups. */
  function account(
    r: Pick<ReviewRow, 'business_id' | 'status' | 'rating' | 'review_at' | 'platform'>,
    sign: 1 | -1,
  ) {
    count.run(r.business_id, r.status, r.rating, sign);
    const synced = isSyncedPlatform(r.platform);
    daily.run({
      business_id: r.business_id,
      day: dayOf(r.review_at),
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
    });
    dailyPlatform.run(r.business_id, dayOf(r.review_at), r.platform, sign);
  }

  return {
    /** Inserts one review and updates its counters and roll-ups; call inside a transaction. */
    insert(r: NewReview): ReviewRow {
      const result = insert.run(
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
      const row = byId.get(result.lastInsertRowid) as ReviewRow;
      account(row, 1);
      return row;
    },
    byId(id: number): ReviewRow | undefined {
      return byId.get(id) as ReviewRow | undefined;
    },
    byRequest(requestId: number): ReviewRow | undefined {
      return byRequest.get(requestId) as ReviewRow | undefined;
    },
    existsExternal(businessId: number, platform: string, externalId: string): boolean {
      return byExternal.get(businessId, platform, externalId) !== undefined;
    },
    /** Changes a review's status, moving it between counters; call inside a transaction. */
    setStatus(id: number, status: ReviewStatus, responseText: string | null): void {
      const before = byId.get(id) as ReviewRow | undefined;
      if (!before) throw new Error(`review ${id} not found`);
      account(before, -1);
      setStatus.run(status, responseText, id);
      account({ ...before, status }, 1);
    },
    /** Matching reviews, from the counters (never a COUNT over the reviews table). */
    total(businessId: number, filter: ReviewFilter): number {
      const args: (string | number)[] = [businessId];
      if (filter.status) args.push(filter.status);
      if (filter.minRating !== undefined) args.push(filter.minRating);
      return (totalStatement(filter).get(...args) as { total: number }).total;
    },
    /**
     * One page (0-based offset) of the list order, given the filter's total. Past the middle the
     * page is read from the other end with the mirrored offset, so the last page costs what the
     * first does.
     */
    page(
      businessId: number,
      filter: ReviewFilter,
      offset: number,
      limit: number,
      total: number,
    ): ReviewListRow[] {
      if (offset >= total || limit <= 0) return [];
      const { desc, asc, args } = pageStatements(filter);
      if (offset <= total / 2) return desc.all(businessId, ...args, limit, offset) as ReviewListRow[];
      const end = Math.min(total, offset + limit); // exclusive, in newest-first positions
      const mirroredOffset = total - end;
      return asc.all(businessId, ...args, end - offset, mirroredOffset) as ReviewListRow[];
    },
    account,
  };
}
