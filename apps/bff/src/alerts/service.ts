import { randomUUID } from 'node:crypto';
import { type Clock, createClock } from '@review-desk/server/clock';
import { migrate } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
import { type JobHandler, JobRunner } from '@review-desk/server/jobs/runner';
import { jobStore, schedulingMigrations } from '@review-desk/server/jobs/store';
import { can, type User } from '@review-desk/shared';
import { ALERTS_ON_BY_DEFAULT } from '@review-desk/shared/alerts';
import type { Logger } from 'pino';
import type { UserStore } from '../auth/users.ts';
import type { Config } from '../env.ts';
import type { LocationDirectory } from '../locations/directory.ts';
import { nextPollDelay, recipients } from './decide.ts';
import { createAlertDelivery } from './delivery.ts';
import { createDigests, DIGEST_KIND } from './digest-job.ts';
import { createDigestStore, type DigestStore } from './digest-store.ts';
import { createMailer, createOutboxMailer, type Mailer } from './mailer.ts';
import { POLL_KIND, pollKey } from './poll-key.ts';
import { ALERT_MIGRATIONS, type AlertStore, createAlertStore } from './store.ts';
import { newestReviews, UpstreamFailure } from './upstream.ts';
import { createPauseNotices } from './webhook-pauses.ts';

// Watching each location for new low ratings. One job per location (`alerts.poll:<id>`) in the
// scheduling tables: whichever BFF process holds its lease polls, then reschedules it one
// interval later (longer after failures), so however many processes run, one poll of a location
// runs at a time. Alerts are raised in the same transaction that records the reviews as seen;
// emails go out after it commits, at most once each (docs/alerts.md). The same job tells the
// location's owners when one of its webhook endpoints has been paused (webhook-pauses.ts).

export { POLL_KIND, pollKey };

export type AlertsDeps = {
  config: Pick<Config, 'alerts' | 'publicOrigin' | 'devHooks'>;
  /** The BFF's database (its owner closes it). */
  db: Database;
  directory: LocationDirectory;
  users: Pick<UserStore, 'get' | 'list'>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  clock?: Clock;
  mailer?: Mailer;
};

export type PollOutcome =
  | { kind: 'skipped'; reason: 'no-location' | 'no-subscribers' }
  | { kind: 'polled'; baseline: boolean; fresh: number; raised: number; emailed: number }
  | { kind: 'failed'; failures: number; error: string; delayMs: number };

export type Alerts = ReturnType<typeof createAlerts>;

/** Since when a user's role has had their alerts on by default (their account's creation); null: it has not. */
const onByDefaultSince = (user: { role: User['role']; createdAt: string }): number | null =>
  ALERTS_ON_BY_DEFAULT.includes(user.role) ? Date.parse(user.createdAt) : null;

export function createAlerts(deps: AlertsDeps) {
  const { config, directory, users, logger } = deps;
  // Scheduled work's clock: the system's, or one the dev hook moves (BFF_DEV_HOOKS=1).
  const clock = deps.clock ?? createClock({ fake: config.devHooks });
  // No mail server in development (dev hooks on): emails go to the BFF's own outbox page.
  const mailer =
    deps.mailer ??
    (config.alerts.smtp === null && config.devHooks
      ? createOutboxMailer()
      : createMailer(config.alerts.smtp));
  const intervalMs = config.alerts.pollMs;
  let opened: Promise<{ db: Database; store: AlertStore; digests: DigestStore }> | null = null;
  let runner: JobRunner | null = null;
  let ensureTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let dashboardOrigin = config.publicOrigin;
  const origin = () => dashboardOrigin ?? '';

  const open = async () => {
    const { db } = deps;
    await migrate(db, [schedulingMigrations, ALERT_MIGRATIONS]);
    return { db, store: createAlertStore(db, clock), digests: createDigestStore(db, clock) };
  };
  const handle = async () => {
    opened ??= open();
    return opened;
  };
  const store = async () => (await handle()).store;
  const digests = createDigests({
    store,
    digests: async () => (await handle()).digests,
    directory,
    users,
    mailer,
    clock,
    logger,
    origin,
  });
  const deliver = createAlertDelivery({ store, users, mailer, logger, origin });
  const checkPauses = createPauseNotices({
    db: async () => (await handle()).db,
    directory,
    users,
    mailer,
    clock,
    logger,
    origin,
  });

  /** One poll of one location (by id); never throws for an upstream failure (it is recorded instead). */
  async function poll(id: string): Promise<PollOutcome & { delayMs: number }> {
    const alerts = await store();
    const location = await directory.byId(id);
    if (!location) return { kind: 'skipped', reason: 'no-location', delayMs: intervalMs };
    const subscribers = await alerts.subscribers(
      (await users.list()).flatMap((user) => {
        const since = onByDefaultSince(user);
        return since === null ? [] : [{ userId: user.id, since }];
      }),
    );
    // Nobody listening: no upstream call. Whoever turns alerts on later starts from the next poll.
    if (subscribers.length === 0) return { kind: 'skipped', reason: 'no-subscribers', delayMs: intervalMs };
    const startedAt = clock.now();
    const readers = new Set<string>();
    for (const subscriber of subscribers) {
      const user = await users.get(subscriber.userId);
      if (!user || !can(user.role, 'reviews:read')) continue;
      const reach = await directory.forUser(subscriber.userId);
      if (reach.some((l) => l.id === id)) readers.add(subscriber.userId);
    }
    try {
      // A location's first poll is its baseline: the newest page is enough.
      const first = (await alerts.watch(id))?.polledAt == null;
      const reviews = await newestReviews(
        location,
        (ids) => alerts.seenAmong(id, ids),
        first ? 1 : undefined,
      );
      const result = await alerts.recordPoll(
        id,
        startedAt,
        reviews,
        (review, previous) => recipients(review, previous, subscribers, (id) => readers.has(id)),
        (subscriber) => (subscriber.channel === 'email' && mailer.configured ? 'pending' : 'none'),
      );
      if (result.raised.length > 0)
        logger.info({ location: location.slug, alerts: result.raised.length }, 'low-rating alerts raised');
      const emailed = await deliver(result.raised, location);
      return {
        kind: 'polled',
        baseline: result.baseline,
        fresh: result.fresh,
        raised: result.raised.length,
        emailed,
        delayMs: intervalMs,
      };
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      const failures = await alerts.recordFailure(id, error.message);
      const delayMs = nextPollDelay(intervalMs, failures, error.retryAfterMs);
      logger.warn(
        { location: location.slug, status: error.status, failures, nextInMs: delayMs },
        'alerts poll failed; backing off',
      );
      return { kind: 'failed', failures, error: error.message, delayMs };
    }
  }

  const handlers: Record<string, JobHandler> = {
    [DIGEST_KIND]: digests.handler,
    [POLL_KIND]: async ({ job }) => {
      const id = String((job.payload as { location?: unknown })?.location ?? '');
      let delayMs = intervalMs;
      try {
        delayMs = (await poll(id)).delayMs;
      } catch (error) {
        // The job must live on (its unique key would block a new one): back off and go on.
        const failures = await (await store()).recordFailure(id, String(error)).catch(() => 1);
        delayMs = nextPollDelay(intervalMs, failures);
        logger.error({ location: id, err: error }, 'alerts poll crashed; backing off');
      }
      await checkPauses(id).catch((error) =>
        logger.error({ location: id, err: error }, 'checking for paused webhook endpoints crashed'),
      );
      return { continueAt: clock.now() + delayMs };
    },
  };

  /**
   * A poll job for every location (a new location gets one within an interval), its first poll
   * (the baseline) one interval later: a server that has just started, or a location just added,
   * is not read at once for the owners and managers alerted by default; turning alerts on asks
   * for a poll at once (pollSoon).
   */
  async function ensureJobs(): Promise<void> {
    const { db } = await handle();
    const jobs = jobStore(db, clock);
    let created = 0;
    for (const location of await directory.all()) {
      const id = await jobs.enqueue({
        kind: POLL_KIND,
        uniqueKey: pollKey(location.id),
        payload: { location: location.id },
        runAt: clock.now() + intervalMs,
      });
      if (id !== null) created++;
    }
    created += await digests.plan(jobs);
    if (created > 0) runner?.wake();
  }
  /** One planning round at a time: the timer and a moved clock may both ask. */
  let planning: Promise<void> | null = null;
  const plan = () => {
    planning ??= ensureJobs()
      .catch((error) => logger.warn({ err: error }, 'alerts: adding jobs failed'))
      .finally(() => {
        planning = null;
      });
    return planning;
  };

  return {
    store,
    mailer,
    clock,
    poll,
    /** Since when the user's role has had their alerts on by default, while they have not chosen. */
    async onByDefault(userId: string): Promise<number | null> {
      const user = await users.get(userId);
      return user ? onByDefaultSince(user) : null;
    },
    ensureJobs,
    /** Where links in emails point when PUBLIC_URL is unset: the address the BFF listens on. */
    setDashboardOrigin(origin: string): void {
      dashboardOrigin ??= origin.replace(/\/+$/, '');
    },
    /** Opens the tables and starts polling in this process (other processes may share the work). */
    async start(): Promise<void> {
      const { db } = await handle();
      runner = new JobRunner({
        db,
        owner: `bff-alerts-${randomUUID()}`,
        handlers,
        clock,
        concurrency: 4,
        // Due jobs are looked for every 5 s (or every interval, if shorter): a poll or a digest runs
        // at most that late, and an idle BFF does one small claim every 5 s instead of every second.
        pollMs: Math.min(5_000, intervalMs),
        logger,
      });
      // A shorter ALERT_POLL_SECONDS than the last run's applies at once, not after the old wait.
      await db.run(
        `UPDATE jobs SET run_at = $1 WHERE kind = $2 AND state = 'pending' AND run_at > $1`,
        clock.now() + intervalMs,
        POLL_KIND,
      );
      await ensureJobs();
      runner.start();
      ensureTimer = setInterval(plan, Math.min(intervalMs, 60_000));
      ensureTimer.unref();
      // A moved clock (dev hooks) may have reached a new week: plan its digests at once.
      unsubscribe = clock.onChange?.(() => void plan());
    },
    /** Plans polls and digests now (after a change of preferences). */
    plan,
    /** Plans, then runs the due polls and digests and what they lead to until none is left (dev hooks, tests). */
    async drain(): Promise<number> {
      await planning;
      return runner ? runner.drain() : 0;
    },
    /** Forces the next poll of every location to run now (after turning alerts on). */
    async pollSoon(): Promise<void> {
      if (!runner) return;
      const { db } = await handle();
      await db.run(
        `UPDATE jobs SET run_at = $1 WHERE kind = $2 AND state = 'pending' AND run_at > $1`,
        clock.now(),
        POLL_KIND,
      );
      runner.wake();
    },
    async stop(): Promise<void> {
      clearInterval(ensureTimer);
      unsubscribe?.();
      await planning;
      await runner?.stop({ timeoutMs: 5_000 });
      runner = null;
      mailer.close();
      opened = null;
    },
  };
}
