import type { Queryable, Transaction } from '@review-desk/server/db/types';
import { AppError } from '@review-desk/server/errors';
import type { BulkLimits } from '../env-bulk.ts';

// What list sends may hold (docs/bulk.md, "Limits"): per user and per location, the lists in
// progress (running or paused) and the rows stored (every list kept, finished ones included, until
// the retention deletes them). Checked in the transaction that stores a list, under a lock on the
// user and one on the location, so lists stored at once by several workers or replicas never
// pass a limit together.

type Held = { lists: number; rows: number };

const counted = (column: 'created_by' | 'location') =>
  `SELECT COALESCE(SUM(CASE WHEN status IN ('running', 'paused') THEN 1 ELSE 0 END), 0) AS lists,
          COALESCE(SUM(total), 0) AS rows
     FROM bulk_jobs WHERE ${column} = $1`;

async function held(tx: Queryable, column: 'created_by' | 'location', key: string): Promise<Held> {
  const row = await tx.get<{ lists: number | string; rows: number | string }>(counted(column), key);
  return { lists: Number(row?.lists ?? 0), rows: Number(row?.rows ?? 0) };
}

const n = (value: number) => value.toLocaleString('en');

/** A user already has `count` lists in progress (or being checked), the most they may. */
export const tooManyOfMine = (count: number) =>
  new AppError(
    'bulk_lists_limit',
    `You already have ${n(count)} list send${count === 1 ? '' : 's'} in progress, the most one person may have at once. Wait for one to finish, or cancel one, then send this list again.`,
  );

/** Refuses (429 or 413) a new list of `rows` rows that would pass a limit; in the storing transaction. */
export async function withinLimits(
  tx: Transaction,
  list: { user: string; location: string; rows: number },
  limits: BulkLimits,
): Promise<void> {
  // Always the user's lock first, then the location's: two lists never wait on each other in a circle.
  await tx.lock('bulk_user', list.user);
  await tx.lock('bulk_location', list.location);
  const mine = await held(tx, 'created_by', list.user);
  if (mine.lists >= limits.userLists) throw tooManyOfMine(mine.lists);
  const here = await held(tx, 'location', list.location);
  if (here.lists >= limits.locationLists)
    throw new AppError(
      'bulk_lists_limit',
      `This location already has ${n(here.lists)} list sends in progress, the most it may have at once. Wait for one to finish, or cancel one, then send this list again.`,
    );
  if (mine.rows + list.rows > limits.userRows)
    throw new AppError(
      'bulk_rows_limit',
      `Your stored lists hold ${n(mine.rows)} rows; with this list's ${n(list.rows)} they would pass the ${n(limits.userRows)} one person may keep. Finished lists are deleted some time after they finish.`,
    );
  if (here.rows + list.rows > limits.locationRows)
    throw new AppError(
      'bulk_rows_limit',
      `This location's stored lists hold ${n(here.rows)} rows; with this list's ${n(list.rows)} they would pass the ${n(limits.locationRows)} it may keep. Finished lists are deleted some time after they finish.`,
    );
}
