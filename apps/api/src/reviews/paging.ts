import type { Queryable } from '@review-desk/server/db/types';
import type { ReviewStatus } from '@review-desk/shared';
import { DAY_MS } from '@review-desk/shared';

// One page of the reviews list. The list order is newest first, ties broken by the highest id
// (stable across pages). Each filter shape reads the covering index whose prefix is its equality
// columns, so the rows come in order without a sort and the offset is skipped inside the index
// without touching the table. On SQLite the choice is pinned with INDEXED BY: its planner cannot
// know which shape is cheap at a million rows (PostgreSQL's statistics let its planner choose).
//
// A deep page still skips its offset entry by entry (10,000 entries for page 500: ~1.5 ms on
// PostgreSQL). Where the day's roll-up counts the filter's reviews (every shape but a status
// with a minimum rating), the page starts at its day instead: the running sum of the roll-up's
// days, from the end the page is read from, names the day that holds the offset and how many
// reviews come before it, so only that day's entries are skipped. One statement reads the
// roll-up and the page, so both see the same moment; the roll-up is written in the transaction
// of each review it counts, so the two agree exactly (docs/decisions/0022-postgres-round-trips.md).

export type ReviewFilter = {
  status?: ReviewStatus | undefined;
  minRating?: number | undefined;
  maxRating?: number | undefined;
  /** One platform (`direct`, `google`…): the inbox's source filter. */
  platform?: string | undefined;
};

export const LIST_COLUMNS = 'id, rating, status, author_name, text, review_at, response_text, platform';

/**
 * From this offset a page starts at its day; below it, skipping costs less than reading the days
 * (measured: PostgreSQL skips ~7 entries a microsecond and reads 400 days in ~0.3 ms; SQLite
 * skips ~20 a microsecond and needs ~0.7 ms for the days).
 */
export const ANCHOR_FROM = { postgres: 2_000, sqlite: 20_000 } as const;

type Shape = {
  index: string;
  where: string;
  args: (string | number)[];
  /** The roll-up's count of this shape's reviews in a day, when it has one. */
  perDay: string | null;
};

/** A rating bound's condition (the filter's values follow the business, from `$next`). */
function ratingBounds(filter: ReviewFilter, next: number): { where: string; args: number[] } {
  const where: string[] = [];
  const args: number[] = [];
  if (filter.minRating !== undefined && filter.minRating > 1) {
    args.push(filter.minRating);
    where.push(`AND rating >= $${next + args.length - 1}`);
  }
  if (filter.maxRating !== undefined && filter.maxRating < 5) {
    args.push(filter.maxRating);
    where.push(`AND rating <= $${next + args.length - 1}`);
  }
  return { where: where.join(' '), args };
}

/**
 * A shape with a platform or an upper rating bound: the inbox's. A status and a platform read
 * reviews_by_platform in order; without a status, the list's own index (the platform read from
 * each row); the bounds filter the covering index's rating. No roll-up counts these by day.
 */
function inboxShape(filter: ReviewFilter): Shape {
  const { status, platform } = filter;
  const args: (string | number)[] = [];
  const where: string[] = [];
  if (status) {
    args.push(status);
    where.push(`AND status = $${args.length + 1}`);
  }
  if (platform) {
    args.push(platform);
    where.push(`AND platform = $${args.length + 1}`);
  }
  const bounds = ratingBounds(filter, args.length + 2);
  const index = status && platform ? 'reviews_by_platform' : status ? 'reviews_by_status' : 'reviews_list';
  return { index, where: [...where, bounds.where].join(' '), args: [...args, ...bounds.args], perDay: null };
}

/** The business is $1; the filter's values follow. */
function listShape(filter: ReviewFilter): Shape {
  if (filter.platform !== undefined || (filter.maxRating !== undefined && filter.maxRating < 5))
    return inboxShape(filter);
  const { status, minRating } = filter;
  const exact5 = minRating === 5;
  const rating = minRating !== undefined && minRating > 1 ? minRating : undefined;
  if (status && exact5)
    return {
      index: 'reviews_by_status_rating',
      where: 'AND status = $2 AND rating = 5',
      args: [status],
      perDay: null,
    };
  if (status && rating)
    return {
      index: 'reviews_by_status',
      where: 'AND status = $2 AND rating >= $3',
      args: [status, rating],
      perDay: null,
    };
  // The status is one of the contract's three, each a column of the roll-up.
  if (status) return { index: 'reviews_by_status', where: 'AND status = $2', args: [status], perDay: status };
  if (exact5) return { index: 'reviews_by_rating', where: 'AND rating = 5', args: [], perDay: 'r5' };
  if (rating) {
    const columns = [2, 3, 4, 5].filter((r) => r >= rating).map((r) => `r${r}`);
    return { index: 'reviews_list', where: 'AND rating >= $2', args: [rating], perDay: columns.join(' + ') };
  }
  return { index: 'reviews_list', where: '', args: [], perDay: 'n' };
}

type Prepared = ReturnType<Queryable['prepare']>;
/** A day in ms, as a 64-bit number on both engines. */
const DAY = `CAST(${DAY_MS} AS BIGINT)`;
type Direction = 'ASC' | 'DESC';

/** The prepared page statements of each filter shape, made on first use. */
export function reviewPages(db: Queryable, anchorFrom: number = ANCHOR_FROM[db.dialect]) {
  const statements = new Map<string, Prepared>();
  // PostgreSQL plans `id = ANY(ARRAY(…))` as a lookup of the page's ids whatever the parameters;
  // SQLite has no arrays, and plans IN (…) the same way.
  const [open, close] = db.dialect === 'postgres' ? ['id = ANY(ARRAY(', '))'] : ['id IN (', ')'];

  function statement(shape: Shape, dir: Direction, anchored: boolean): Prepared {
    const key = `${shape.index}|${shape.where}|${shape.perDay}|${dir}|${anchored}`;
    let prepared = statements.get(key);
    if (!prepared) {
      const indexed = db.dialect === 'sqlite' ? `INDEXED BY ${shape.index}` : '';
      const limit = `$${shape.args.length + 2}`;
      const offset = `$${shape.args.length + 3}`;
      const ids = (range: string, skip: string) =>
        `SELECT id FROM reviews ${indexed} WHERE business_id = $1 ${shape.where} ${range}
          ORDER BY review_at ${dir}, id ${dir} LIMIT ${limit} OFFSET ${skip}`;
      let sql: string;
      if (!anchored) sql = `SELECT ${LIST_COLUMNS} FROM reviews WHERE ${open}${ids('', offset)}${close}`;
      else {
        // Days in the page's direction with the running count up to and including each; the
        // first whose running count passes the offset holds it.
        const bound =
          dir === 'DESC'
            ? `review_at < (SELECT (day + 1) * ${DAY} FROM anchor)`
            : `review_at >= (SELECT day * ${DAY} FROM anchor)`;
        sql = `WITH days AS (
            SELECT day, ${shape.perDay} AS n, sum(${shape.perDay}) OVER (ORDER BY day ${dir}) AS through
            FROM review_daily WHERE business_id = $1),
          anchor AS (
            SELECT day, ${offset} - (through - n) AS skip FROM days WHERE through > ${offset}
            ORDER BY day ${dir} LIMIT 1)
          SELECT ${LIST_COLUMNS} FROM reviews WHERE ${open}${ids(`AND ${bound}`, 'coalesce((SELECT skip FROM anchor), 0)')}${close}`;
      }
      prepared = db.prepare(`${sql} ORDER BY review_at DESC, id DESC`);
      statements.set(key, prepared);
    }
    return prepared;
  }

  /** One page from the given end: `offset` reviews of that end skipped, `limit` read. */
  return function page<T>(
    businessId: number,
    filter: ReviewFilter,
    dir: Direction,
    offset: number,
    limit: number,
  ): Promise<T[]> {
    const shape = listShape(filter);
    const anchored = shape.perDay !== null && offset >= anchorFrom;
    return statement(shape, dir, anchored).all<T>(businessId, ...shape.args, limit, offset);
  };
}
