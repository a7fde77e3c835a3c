import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import { jobStore } from '@review-desk/server/jobs/store';
import { DAY_MS } from '@review-desk/shared/time';
import type { Store } from '../../store/index.ts';

// Reply attempts are kept REPLY_RETENTION_DAYS (an Idempotency-Key is remembered that long), then
// deleted, except each review's latest, which says how its reply went. One job in the jobs table
// does it once a day, whichever process claims it.

export const REPLY_PURGE_JOB = 'reviews.replies-purge';
export const REPLY_RETENTION_DAYS = 90;

export function replyPurge(deps: { db: () => Promise<Database>; store: Store; clock: Clock }) {
  const handler: JobHandler = async () => {
    await deps.store.replies.purge(deps.clock.now() - REPLY_RETENTION_DAYS * DAY_MS);
    return { continueAt: deps.clock.now() + DAY_MS };
  };
  return {
    handler,
    /** At start: the one purge job exists (made once, ever; it reschedules itself). */
    async ensureScheduled(): Promise<void> {
      await jobStore(await deps.db(), deps.clock).enqueue({
        kind: REPLY_PURGE_JOB,
        uniqueKey: REPLY_PURGE_JOB,
      });
    },
  };
}
