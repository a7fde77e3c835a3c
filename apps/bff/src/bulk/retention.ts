import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import { jobStore } from '@review-desk/server/jobs/store';
import type { Logger } from 'pino';

// Finished list sends (done or cancelled) and their rows are deleted BULK_RETENTION_DAYS after they
// finished, by a job of their own in the jobs table: one for the whole database (its unique key),
// claimed under a lease, so however many BFF processes run, one deletes at a time. It never ends:
// each run schedules the next, an hour later on the scheduling clock.

export const BULK_RETENTION_JOB = 'bulk.retention';
const EVERY_MS = 60 * 60_000;
/** Lists deleted per transaction (each with up to 10,000 rows). */
const LISTS_PER_STEP = 20;

export function bulkRetention(options: { db: Database; clock: Clock; retentionMs: number; logger: Logger }) {
  const { db, clock } = options;
  const jobs = jobStore(db, clock);
  const due = db.prepare(`SELECT id FROM bulk_jobs WHERE status IN ('done', 'cancelled') AND finished_at < $1
    ORDER BY finished_at LIMIT ${LISTS_PER_STEP}`);

  /** Deletes the finished lists past their retention, a few at a time; returns how many. */
  async function purge(): Promise<number> {
    const before = clock.now() - options.retentionMs;
    let deleted = 0;
    for (;;) {
      const ids = (await due.all<{ id: string }>(before)).map((r) => r.id);
      if (ids.length === 0) return deleted;
      const list = ids.map((_, i) => `$${i + 1}`).join(', ');
      await db.transaction(async (tx) => {
        await tx.run(`DELETE FROM bulk_rows WHERE job_id IN (${list})`, ...ids);
        await tx.run(`DELETE FROM bulk_jobs WHERE id IN (${list})`, ...ids);
      });
      deleted += ids.length;
    }
  }

  const handler: JobHandler = async () => {
    // Never fails: a failed job would keep its unique key, and no retention would run again.
    try {
      const deleted = await purge();
      if (deleted > 0) options.logger.info({ deleted }, 'finished list sends past their retention deleted');
    } catch (error) {
      options.logger.warn(
        { err: error },
        'deleting finished list sends failed; trying again at the next run',
      );
    }
    return { continueAt: clock.now() + EVERY_MS };
  };

  return {
    kind: BULK_RETENTION_JOB,
    handler,
    purge,
    /** Makes the retention job if no process did yet (safe at every start). */
    async schedule(): Promise<void> {
      await jobs.enqueue({ kind: BULK_RETENTION_JOB, uniqueKey: BULK_RETENTION_JOB });
    },
  };
}
