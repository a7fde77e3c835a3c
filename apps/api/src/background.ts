import type { Database } from '@review-desk/server/db/types';
import { jobStore } from '@review-desk/server/jobs/store';
import { type AppContext, sendContextOf } from './context.ts';
import { REMINDER_JOB } from './reminders/reminders.ts';
import { deliverHeld, recordHeld } from './requests/held.ts';
import { scheduledSendHandler, startScheduler } from './requests/scheduled.ts';
import { reviewLinkFor } from './requests/validate.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';
import { WEBHOOK_RETENTION_JOB, webhookRetention, webhookRetentionJob } from './webhooks/retention.ts';

// What every process of the service does besides answering: the leased jobs (held sends going out
// at their time, reminders, the webhooks' retention) and the delivery of the webhooks' outbox.

export async function startBackground(
  ctx: AppContext,
  db: Database,
  options: { webhookCa?: string | undefined },
) {
  // Held requests go out at their time, from whichever process claims them.
  const sendContext = () => sendContextOf(ctx);
  const scheduler = await startScheduler({
    tracker: ctx.tracker,
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
      [REMINDER_JOB]: ctx.reminders.handler,
      [WEBHOOK_RETENTION_JOB]: webhookRetention(ctx.store, ctx.clock),
    },
  });
  await jobStore(db, ctx.clock).enqueue(webhookRetentionJob());
  ctx.dispatcher.current = startDispatcher({
    store: ctx.store,
    box: ctx.box,
    clock: ctx.clock,
    logger: ctx.logger,
    allowPrivate: ctx.config.webhooks.allowPrivate,
    ca: options.webhookCa,
  });
  return {
    scheduler,
    async stop() {
      await ctx.dispatcher.current?.stop();
      await scheduler.stop();
    },
  };
}
