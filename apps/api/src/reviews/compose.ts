import type { JobHandler } from '@review-desk/server/jobs/runner';
import type { AppContext } from '../context.ts';
import { reviewLinkFor } from '../requests/validate.ts';
import { createGoogle } from './google/service.ts';
import { createGoogleSync, GOOGLE_SYNC_JOB } from './google/sync.ts';
import { REPLY_PURGE_JOB, replyPurge } from './reply/purge.ts';
import { replyStaleMs } from './reply/recover.ts';
import { createReplies, type RepliesDeps } from './reply/replies.ts';
import { REPLY_SEND_JOB, replySendHandler } from './reply/to-customer.ts';

// Answering reviews in the service's composition (server.ts): the Google connections and their
// sync, the replies, and the scheduled work they bring (a held reply, a location's sync).

type Parts = Pick<AppContext, 'google' | 'googleSync' | 'replies'>;

/** What a reply needs from the service (also the held replies' job). */
function repliesDeps(ctx: AppContext): RepliesDeps {
  return {
    store: ctx.store,
    settings: ctx.settings,
    delivery: ctx.delivery,
    tracker: ctx.tracker,
    now: ctx.now,
    clock: ctx.clock,
    db: () => ctx.tracker.db(),
    google: ctx.google,
    reviewLink: (token: string) => reviewLinkFor(ctx.site.publicOrigin, token),
    staleMs: replyStaleMs(ctx.config),
  };
}

/** Fills in the context's reviews parts (the rest of it is made first). */
export function composeReviews(ctx: Omit<AppContext, keyof Parts> & Partial<Parts>): void {
  const full = ctx as AppContext;
  full.google = createGoogle({
    db: ctx.store.db,
    config: ctx.config.google,
    logger: ctx.logger,
    now: ctx.now,
  });
  full.googleSync = createGoogleSync({
    db: () => ctx.tracker.db(),
    store: ctx.store,
    google: full.google,
    clock: ctx.clock,
    logger: ctx.logger,
    syncMs: ctx.config.google.syncMs,
  });
  full.replies = createReplies(repliesDeps(full));
}

const purgeOf = (ctx: AppContext) =>
  replyPurge({ db: () => ctx.tracker.db(), store: ctx.store, clock: ctx.clock });

/** The scheduled work of answering reviews, by job kind. */
export function reviewJobs(ctx: AppContext): Record<string, JobHandler> {
  return {
    [REPLY_SEND_JOB]: replySendHandler(repliesDeps(ctx)),
    [GOOGLE_SYNC_JOB]: ctx.googleSync.handler,
    [REPLY_PURGE_JOB]: purgeOf(ctx).handler,
  };
}

/** At start: every Google location has its sync job, and the replies' purge is planned. */
export async function scheduleReviewJobs(ctx: AppContext): Promise<void> {
  await ctx.googleSync.ensureScheduled();
  await purgeOf(ctx).ensureScheduled();
}
