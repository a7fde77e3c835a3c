import type { Clock } from '@review-desk/server/clock';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import type { NewJob } from '@review-desk/server/jobs/store';
import { DAY_MS, WEBHOOK_LOG_DAYS } from '@review-desk/shared';
import type { Store } from '../store/index.ts';

// The delivery log keeps an event WEBHOOK_LOG_DAYS days (docs/api.md, "Webhooks"), and a secret
// replaced by a rotation signs for 24 hours only: one leased job a day (the kit's jobs, so one
// process runs it) deletes what is older, in steps, and forgets the expired secrets.

export const WEBHOOK_RETENTION_JOB = 'webhooks.retention';
const STEP = 5_000;

export const webhookRetentionJob = (): NewJob => ({
  kind: WEBHOOK_RETENTION_JOB,
  uniqueKey: WEBHOOK_RETENTION_JOB,
  maxAttempts: 5,
});

export function webhookRetention(store: Store, clock: Clock): JobHandler {
  return async () => {
    const now = clock.now();
    const before = now - WEBHOOK_LOG_DAYS * DAY_MS;
    while ((await store.events.outbox.purge(before, STEP)) === STEP);
    await store.webhookEndpoints.expireSecrets(now);
    return { continueAt: now + DAY_MS };
  };
}
