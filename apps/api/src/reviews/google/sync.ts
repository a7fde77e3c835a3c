import { nextPollDelay } from '@review-desk/server/backoff';
import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import { jobStore } from '@review-desk/server/jobs/store';
import type { Logger } from '@review-desk/server/log';
import type { Store } from '../../store/index.ts';
import type { ConnectionRow } from './connections.ts';
import type { GoogleService } from './service.ts';
import { type PageOutcome, upsertPage } from './upsert.ts';

// Each connected location's reviews, read from Google by a job in the jobs table (one per
// connection: `google.sync:<business>:<generation>`), so however many processes run, one reads a
// location at a time. A pass reads pages of 50, newest update first, and stops at the first page
// holding a review no newer than the last complete pass's newest (so an incremental pass reads one
// page), or at the last page. The job then comes back GOOGLE_SYNC_SECONDS later; after a 429, a
// 5xx or no answer, later still (the alerts' back-off: doubled per failure, at most an hour, never
// before Retry-After); after a 401/403 the connection needs its owner and the job ends.

export const GOOGLE_SYNC_JOB = 'google.sync';
export const syncKey = (businessId: number, generation: number) =>
  `${GOOGLE_SYNC_JOB}:${businessId}:${generation}`;

type Payload = { businessId: number; generation: number };

/** The most pages one pass reads (100,000 reviews): the bound of one job's work. */
export const MAX_PAGES = 2_000;

export type PassOutcome =
  | ({ kind: 'done'; pages: number; through: number | null } & PageOutcome)
  | { kind: 'failed'; message: string; retryAfterMs: number | null; needsOwner: boolean };

export function createGoogleSync(deps: {
  db: () => Promise<Database>;
  store: Store;
  google: GoogleService;
  clock: Clock;
  logger: Logger;
  syncMs: number;
}) {
  const { store, google, clock, logger } = deps;

  /** One pass over a location's reviews: pages until what is known, each page in one transaction. */
  async function pass(row: ConnectionRow): Promise<PassOutcome> {
    const db = await deps.db();
    const totals: PageOutcome = { inserted: 0, updated: 0, unchanged: 0, skipped: 0 };
    let pageToken: string | null = null;
    let newest: number | null = null;
    let pages = 0;
    for (;;) {
      const page = await google.withAccess(row, (token) =>
        google.client.listReviews(token, row.account_id, row.location_id, pageToken),
      );
      if (page.kind !== 'ok') {
        return {
          kind: 'failed',
          message: page.message,
          retryAfterMs: page.kind === 'refused' ? page.retryAfterMs : null,
          needsOwner: page.kind === 'refused' && page.auth,
        };
      }
      pages++;
      const reviews = page.value.reviews ?? [];
      const outcome = await db.transaction(() =>
        upsertPage(db, store, row.business_id, reviews, clock.now()),
      );
      for (const key of Object.keys(totals) as (keyof PageOutcome)[]) totals[key] += outcome[key];
      for (const review of reviews) newest = Math.max(newest ?? 0, review.updateTime);
      const reachedKnown =
        row.synced_through !== null &&
        reviews.some((review) => review.updateTime <= (row.synced_through as number));
      pageToken = page.value.nextPageToken ?? null;
      if (reachedKnown || pageToken === null || reviews.length === 0 || pages >= MAX_PAGES) break;
    }
    // A pass cut short by MAX_PAGES has not read down to what is known: it records no new mark.
    const complete = pageToken === null || pages < MAX_PAGES;
    return { kind: 'done', pages, through: complete ? newest : null, ...totals };
  }

  async function schedule(businessId: number, generation: number, runAt: number): Promise<void> {
    const jobs = jobStore(await deps.db(), clock);
    const payload: Payload = { businessId, generation };
    await jobs.enqueue({ kind: GOOGLE_SYNC_JOB, uniqueKey: syncKey(businessId, generation), payload, runAt });
  }

  const handler: JobHandler = async ({ job }) => {
    const { businessId, generation } = job.payload as Payload;
    const row = await google.connections.get(businessId);
    // Disconnected, connected again since (a newer job reads it), or waiting for its owner.
    if (!row || row.generation !== generation || row.state !== 'connected' || !google.configured) return;
    const now = clock.now();
    await store.replies.settleStale(now - 2 * google.client.timeoutMs, now);
    const outcome = await pass(row);
    if (outcome.kind === 'done') {
      await google.connections.synced(row, outcome.through, clock.now());
      // A pass that found nothing new is a debug line: a quiet location would fill the log.
      const quiet = outcome.inserted === 0 && outcome.updated === 0;
      logger[quiet ? 'debug' : 'info'](
        { business: businessId, pages: outcome.pages, inserted: outcome.inserted, updated: outcome.updated },
        'Google reviews synced',
      );
      return { continueAt: clock.now() + deps.syncMs };
    }
    if (outcome.needsOwner) return;
    const failures = await google.connections.failed(row, outcome.message, clock.now());
    const delay = nextPollDelay(deps.syncMs, failures, outcome.retryAfterMs);
    logger.warn(
      { business: businessId, failures, delayMs: delay, err: outcome.message },
      'Google sync failed',
    );
    return { continueAt: clock.now() + delay };
  };

  return {
    handler,
    pass,
    schedule,
    /** At start: every connected location has its job (made once; a running one is left be). */
    async ensureScheduled(): Promise<void> {
      for (const row of await google.connections.connected())
        await schedule(row.business_id, row.generation, clock.now());
    },
    /** When the connection's job runs next (for the Settings page). */
    async nextRunAt(row: ConnectionRow | undefined): Promise<number | null> {
      if (!row) return null;
      const job = await jobStore(await deps.db(), clock).byKey(syncKey(row.business_id, row.generation));
      return job && (job.state === 'pending' || job.state === 'running') ? job.runAt : null;
    },
  };
}
export type GoogleSync = ReturnType<typeof createGoogleSync>;
