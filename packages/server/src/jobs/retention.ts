import { DAY_MS } from '@review-desk/shared/time';
import type { Clock } from '../clock.ts';
import type { Database, DbLogger } from '../db/types.ts';
import type { JobHandler } from './runner.ts';
import { jobStore } from './store.ts';

type Logger = DbLogger & { info(details: object, message: string): void };

// Finished jobs (done, failed, cancelled) are kept for a while, to see what ran and why one
// failed, then deleted: with reminders on, every request leaves one, and nothing else would ever
// remove it. The deleting is itself a job, one for the whole database (its unique key), claimed
// under a lease like any other: however many processes run, one deletes at a time. It never ends:
// each run schedules the next.

export const RETENTION_JOB = 'jobs.retention';
/** How long a finished job is kept. */
export const FINISHED_JOB_RETENTION_MS = 14 * DAY_MS;
/** How often the retention job runs. */
export const RETENTION_EVERY_MS = 60 * 60_000;
/** Rows deleted per statement. */
const BATCH = 5_000;

export type JobRetention = {
  kind: typeof RETENTION_JOB;
  /** Makes the retention job if no process did yet (safe to call at every start). */
  schedule(): Promise<void>;
  handler: JobHandler;
};

export function jobRetention(options: {
  db: Database;
  /** The service's clock: finished jobs are dated on it. */
  clock: Clock;
  logger: Logger;
  retentionMs?: number;
  everyMs?: number;
}): JobRetention {
  const jobs = jobStore(options.db, options.clock);
  const retentionMs = options.retentionMs ?? FINISHED_JOB_RETENTION_MS;
  const everyMs = options.everyMs ?? RETENTION_EVERY_MS;
  return {
    kind: RETENTION_JOB,
    async schedule() {
      await jobs.enqueue({ kind: RETENTION_JOB, uniqueKey: RETENTION_JOB });
    },
    handler: async () => {
      // Never fails: a failed job would keep its unique key and no retention would run again.
      try {
        const before = options.clock.now() - retentionMs;
        let deleted = 0;
        let batch: number;
        do {
          batch = await jobs.purge(before, BATCH);
          deleted += batch;
        } while (batch === BATCH);
        if (deleted > 0) options.logger.info({ deleted }, 'finished jobs past their retention deleted');
      } catch (error) {
        options.logger.warn({ err: error }, 'deleting finished jobs failed; trying again at the next run');
      }
      return { continueAt: options.clock.now() + everyMs };
    },
  };
}
