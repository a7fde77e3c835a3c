import type { SqlValue } from '@review-desk/server/db/types';
import type { Store } from '../../src/store/index.ts';

// Reading and changing the tables directly, to check the service against a brute-force query or
// to put a row in a state no request can. SQL written with $1…$n placeholders, as every store's.

/** Every row of a query. */
export async function queryAll<T = Record<string, unknown>>(
  store: Store,
  sql: string,
  ...params: SqlValue[]
): Promise<T[]> {
  return store.db.all<T>(sql, ...params);
}

/** The first row of a query, if any. */
export async function queryOne<T = Record<string, unknown>>(
  store: Store,
  sql: string,
  ...params: SqlValue[]
): Promise<T | undefined> {
  return store.db.get<T>(sql, ...params);
}

/** A write; returns how many rows it changed. */
export async function execute(store: Store, sql: string, ...params: SqlValue[]): Promise<number> {
  return (await store.db.run(sql, ...params)).changes;
}

/** The WHERE clause (and its parameters) of a brute-force query for a business's reviews. */
export function reviewsWhere(
  businessId: number,
  filter: { status?: string; minRating?: number; maxRating?: number },
): { where: string; args: SqlValue[] } {
  const args: SqlValue[] = [businessId];
  const where = ['business_id = $1'];
  if (filter.status) {
    args.push(filter.status);
    where.push(`status = $${args.length}`);
  }
  if (filter.minRating) {
    args.push(filter.minRating);
    where.push(`rating >= $${args.length}`);
  }
  if (filter.maxRating) {
    args.push(filter.maxRating);
    where.push(`rating <= $${args.length}`);
  }
  return { where: where.join(' AND '), args };
}
