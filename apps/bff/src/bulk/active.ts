import type { Queryable } from '@review-desk/server/db/types';

// The list sends of a location that are not over yet (running, or paused and resumable): a
// location with any cannot be removed, or their rows would have nowhere to go.

export async function unfinishedBulkJobs(db: Queryable, locationId: string): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM bulk_jobs WHERE location = $1 AND status IN ('running', 'paused')`,
    locationId,
  );
  return Number(row?.n ?? 0);
}
