import { type Clock, FakeClock, systemClock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import { jobRetention } from '@review-desk/server/jobs/retention';
import type { JobRunner } from '@review-desk/server/jobs/runner';
import { createLogSink, type LogSink, writeReadyLine } from '@review-desk/server/log';
import { createHttpMetrics } from '@review-desk/server/metrics';
import { createSecretBox, loadSecretsKey } from '@review-desk/server/secrets';
import { type Served, serve } from '@review-desk/server/serve';
import { createKeyUsage } from './accounts/keys.ts';
import { expressApp } from './app.ts';
import { createJobs, squareFor, startOutbox } from './background.ts';
import type { AppContext } from './context.ts';
import { createDeliveryProvider } from './delivery/index.ts';
import type { DeliveryProvider } from './delivery/provider.ts';
import { openDeliveryTracker } from './delivery/tracker.ts';
import { TWILIO_WEBHOOKS } from './delivery/twilio-routes.ts';
import { seedDemo } from './demo/seed.ts';
import type { Config } from './env.ts';
import { logRefusal } from './http/index.ts';
import type { Square } from './integrations/square/service.ts';
import { createRateLimiter, createSharedRateLimiter } from './rate/limiter.ts';
import { createReminders, type Reminders } from './reminders/reminders.ts';
import { recoverInterruptedSends } from './requests/held.ts';
import { sendStore } from './requests/send-store.ts';
import { reviewLinkFor } from './requests/validate.ts';
import { composeReviews, reviewJobs, scheduleReviewJobs } from './reviews/compose.ts';
import { recoverReplies } from './reviews/reply/recover.ts';
import { createSettingsService, openSettings } from './settings/index.ts';
import { openApiDatabase } from './store/database.ts';
import { createStore } from './store/index.ts';
import type { Dispatcher } from './webhooks/dispatcher.ts';
import { deliveryEvents } from './webhooks/events.ts';
import { createWebhooks } from './webhooks/service.ts';
import { createWidgets } from './widget/service.ts';

// Composition: configuration → store, delivery, logger → the Express app, mounted in the order
// of a request's story.

export type ApiOptions = {
  delivery?: DeliveryProvider;
  /** Where logs go (a service's own by default). */
  sink?: LogSink;
  /** Clock for tests (ms since the epoch). */
  now?: () => number;
  /** A clock for tests that scheduled work waits on (a FakeClock); `now` reads it when given. */
  clock?: Clock;
  /** Extra trust anchors (PEM) for webhook receivers' certificates: the tests' own authority. */
  webhookCa?: string;
};

/** The app over an opened database (store/database.ts: openApiDatabase). */
export function buildApp(config: Config, db: Database, options: ApiOptions = {}) {
  const store = createStore(db);
  const sink = options.sink ?? createLogSink({ service: 'api', level: config.logLevel });
  const metrics = createHttpMetrics('api');
  const settingsTable = openSettings(db);
  const site = { publicOrigin: config.publicOrigin ?? `http://${config.host}:${config.port}` };
  const clock: Clock =
    options.clock ?? (options.now ? { now: options.now } : config.devClock ? new FakeClock() : systemClock);
  const now = options.now ?? (() => clock.now());
  // Receipts and opt-outs report their events in their own transactions.
  const dispatcher: { current?: Dispatcher } = {};
  const tracker = openDeliveryTracker({ db, logger: sink.logger, now, hooks: deliveryEvents(store.events) });
  const box = createSecretBox(loadSecretsKey(config.secrets, { create: true, variable: 'SECRETS_KEY' })!);
  const ctx: Omit<AppContext, 'google' | 'googleSync' | 'replies'> = {
    config,
    store,
    sends: sendStore({ store, tracker, clock, monthlySendAllowance: config.monthlySendAllowance }),
    delivery:
      options.delivery ??
      createDeliveryProvider(config, {
        statusCallback: () => `${ctx.site.publicOrigin}${TWILIO_WEBHOOKS.status}`,
      }),
    tracker,
    logger: sink.logger,
    metrics,
    // One process on SQLite counts in memory; replicas on PostgreSQL count together in it, on the
    // database's clock unless this service's clock is a movable one.
    rateLimiter:
      db.dialect === 'postgres'
        ? createSharedRateLimiter(db, { callerClock: options.now !== undefined || config.devClock })
        : createRateLimiter(),
    keyUsage: createKeyUsage(store),
    settings: createSettingsService({
      settings: settingsTable.store,
      store,
      defaults: {
        quietHours: config.quietHours,
        timeZone: config.businessTimeZone,
        reminderAfterDays: config.reminderAfterDays,
      },
      publicOrigin: () => site.publicOrigin,
      now,
    }),
    // Made just below: they read the settings, the tracker and the delivery above.
    reminders: undefined as unknown as Reminders,
    widgets: createWidgets({ store, now, publicOrigin: () => site.publicOrigin, logger: sink.logger }),
    jobs: undefined as unknown as JobRunner,
    webhooks: createWebhooks({
      store,
      box,
      allowPrivate: config.webhooks.allowPrivate,
      now,
      wake: () => dispatcher.current?.wake(),
    }),
    box,
    square: undefined as unknown as Square,
    dispatcher,
    now,
    clock,
    site,
  };
  ctx.reminders = createReminders({
    db: () => ctx.tracker.db(),
    store,
    settings: ctx.settings,
    tracker: ctx.tracker,
    delivery: ctx.delivery,
    clock,
    logger: sink.logger,
    monthlySendAllowance: config.monthlySendAllowance,
    reviewLink: (token) => reviewLinkFor(ctx.site.publicOrigin, token),
  });
  // Finished jobs (one per reminder, per held send) are deleted after a while, by a job of their own.
  const retention = jobRetention({ db, clock, logger: sink.logger });
  composeReviews(ctx);
  const full = ctx as AppContext;
  ctx.jobs = createJobs(full, db, { [retention.kind]: retention.handler, ...reviewJobs(full) });
  ctx.square = squareFor(full, config.square);
  return { ...expressApp(full, config, clock, metrics), ctx: full, sink, retention };
}

export type RunningApi = {
  url: string;
  ctx: AppContext;
  sink: LogSink;
  close(): Promise<void>;
};

/** Opens the store, seeds the demo if asked, listens, and writes the `listening` line. */
export async function startApi(config: Config, options: ApiOptions = {}): Promise<RunningApi> {
  // Every component's tables migrate before the ready line: a refusal stops the start.
  const db = await openApiDatabase(config);
  const { handler, ctx, sink, retention } = buildApp(config, db, options);
  // Keys and settings are cached for up to a second; what other processes change drops them here.
  const changes = [
    await ctx.store.keys.listen(),
    await ctx.settings.listen(),
    ...(await ctx.widgets.start()),
  ];
  const stopListening = () => Promise.all(changes.map((subscription) => subscription.close()));
  const recovered = await recoverInterruptedSends(ctx.store, ctx.tracker, ctx.now());
  if (recovered > 0) ctx.logger.warn({ recovered }, 'requests interrupted during delivery marked failed');
  // Held requests and reminders go out when due, from whichever process claims them; every
  // process delivers the webhooks' outbox.
  await retention.schedule();
  // Replies a stopped process left under way are unknown; every Google location has its sync job.
  await recoverReplies(ctx, db.dialect);
  await scheduleReviewJobs(ctx);
  ctx.jobs.start();
  await startOutbox(ctx, db, { webhookCa: options.webhookCa });

  // Demo data before the ready line: whoever waits for `listening` finds it in place.
  if (config.seedDemo) {
    const seeded = await seedDemo(ctx.store, { keyFile: config.demoKeyFile, now: ctx.now() });
    ctx.logger.info(
      { business: seeded.business.slug, created: seeded.created, keyCreated: seeded.keyCreated },
      seeded.created ? 'demo data seeded' : 'demo data already present',
    );
  }
  if (config.devOutbox)
    ctx.logger.info(
      'the dev outbox is on: /dev/outbox lists customers’ contacts and its fault hooks fail some sends',
    );

  let served: Served;
  try {
    served = await serve({
      handler,
      port: config.port,
      host: config.host,
      portVariable: 'PORT',
      portExplicit: config.portExplicit,
      logger: ctx.logger,
      // Refused before Express: logged like any other answer (http/middleware.ts, requestLogging).
      onRefused: (refusal) => logRefusal(ctx, refusal),
      // A client keeping a connection open must not hold a graceful shutdown for long.
      timeouts: { keepAliveTimeout: 5_000 },
    });
  } catch (error) {
    await ctx.dispatcher.current?.stop();
    await ctx.jobs.stop({ timeoutMs: 5_000 });
    await stopListening();
    await ctx.tracker.close();
    await db.close();
    throw error;
  }
  ctx.site.publicOrigin = config.publicOrigin ?? served.url;
  const usageTimer = setInterval(() => void ctx.keyUsage.flush(), 30_000).unref();
  await writeReadyLine(sink, {
    url: served.url,
    publicOrigin: ctx.site.publicOrigin,
    delivery: ctx.delivery.name,
  });

  let closing: Promise<void> | undefined;
  return {
    url: served.url,
    ctx,
    sink,
    close() {
      closing ??= (async () => {
        // In-flight requests get a moment to finish; then their sockets are cut.
        await served.close({ graceMs: 3_000 });
        clearInterval(usageTimer);
        await ctx.keyUsage.flush();
        await ctx.dispatcher.current?.stop();
        await ctx.jobs.stop({ timeoutMs: 5_000 });
        await stopListening();
        await ctx.delivery.close();
        await ctx.tracker.close();
        await db.close({ checkpoint: true });
      })();
      return closing;
    },
  };
}
