import type { Database } from '@review-desk/server/db/types';
import type { JobHandler, JobRunner } from '@review-desk/server/jobs/runner';
import { jobStore } from '@review-desk/server/jobs/store';
import { type AppContext, sendContextOf } from './context.ts';
import type { SquareConfig } from './integrations/square/config.ts';
import { createSquare, type Square } from './integrations/square/service.ts';
import { REMINDER_JOB } from './reminders/reminders.ts';
import { deliverHeld, recordHeld } from './requests/held.ts';
import { createScheduler, scheduledSendHandler } from './requests/scheduled.ts';
import { sendReviewRequest } from './requests/send.ts';
import { reviewLinkFor } from './requests/validate.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';
import { WEBHOOK_RETENTION_JOB, webhookRetention, webhookRetentionJob } from './webhooks/retention.ts';

// What every process of the service does besides answering: the leased jobs (held sends going out
// at their time, reminders, the webhooks' retention), the delivery of the webhooks' outbox, and
// Square's notifications turned into sends.

/**
 * The process's runner of scheduled work, made with the app and started by startApi; `more`: the
 * handlers of other kinds (the jobs' own retention).
 */
export function createJobs(ctx: AppContext, db: Database, more: Record<string, JobHandler> = {}): JobRunner {
  const sendContext = () => sendContextOf(ctx);
  return createScheduler({
    db,
    clock: ctx.clock,
    logger: ctx.logger,
    handler: scheduledSendHandler({
      store: ctx.store,
      tracker: ctx.tracker,
      logger: ctx.logger,
      now: ctx.now,
      reviewLink: (token) => reviewLinkFor(ctx.site.publicOrigin, token),
      templatesFor: (businessId) => ctx.settings.templatesFor(businessId),
      deliver: (reserved, messages) => deliverHeld(sendContext(), reserved, messages),
      giveUp: (reserved, messages, outcome) =>
        recordHeld(
          sendContext(),
          reserved,
          messages.map((message) => ({ message, outcome })),
        ),
    }),
    more: {
      ...more,
      [REMINDER_JOB]: ctx.reminders.handler,
      [WEBHOOK_RETENTION_JOB]: webhookRetention(ctx.store, ctx.clock),
    },
  });
}

/** The webhooks' outbox delivered by this process, and its retention job made once for all. */
export async function startOutbox(
  ctx: AppContext,
  db: Database,
  options: { webhookCa?: string | undefined },
) {
  await jobStore(db, ctx.clock).enqueue(webhookRetentionJob());
  ctx.dispatcher.current = startDispatcher({
    store: ctx.store,
    box: ctx.box,
    clock: ctx.clock,
    logger: ctx.logger,
    allowPrivate: ctx.config.webhooks.allowPrivate,
    ca: options.webhookCa,
  });
}

/** POST /dev/jobs: the due jobs and the due webhook deliveries, and what they lead to, until none is left. */
export async function drainAll(ctx: AppContext): Promise<number> {
  let ran = 0;
  for (;;) {
    const jobs = await ctx.jobs.drain();
    await ctx.dispatcher.current?.drain();
    ran += jobs;
    if (jobs === 0) return ran;
  }
}

/** Square for every business: its notifications become sends through the service's own send path. */
export function squareFor(ctx: AppContext, config: SquareConfig): Square {
  return createSquare({
    store: ctx.store,
    box: ctx.box,
    config,
    publicOrigin: () => ctx.site.publicOrigin,
    now: ctx.now,
    send: (sender, body, source) => sendReviewRequest(sendContextOf(ctx), sender, body, source),
  });
}
