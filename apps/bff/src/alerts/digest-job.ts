import type { Clock } from '@review-desk/server/clock';
import type { JobHandler } from '@review-desk/server/jobs/runner';
import type { JobStore } from '@review-desk/server/jobs/store';
import { can, LOW_RATING_MAX, mapBounded } from '@review-desk/shared';
import type { Logger } from 'pino';
import type { UserStore } from '../auth/users.ts';
import type { LocationDirectory, RoutedLocation } from '../locations/directory.ts';
import {
  DIGEST_DAYS,
  DIGEST_GRACE_MS,
  type DigestLocation,
  digestLocation,
  digestSlots,
  renderDigestEmail,
  slotOf,
} from './digest.ts';
import type { DigestStore } from './digest-store.ts';
import type { Mailer } from './mailer.ts';
import type { AlertStore } from './store.ts';
import { analyticsFor, pendingCount } from './upstream.ts';

// The weekly digest as scheduled work: one job per user and week (`alerts.digest:<user>:<week>`,
// a unique key) due at Monday 08:00 on the user's wall clock, run under a lease by whichever
// process claims it. The week's row in alert_digests is written before the email is handed over:
// a retry, a restart or another process finds it and sends nothing.

export const DIGEST_KIND = 'alerts.digest';
export const digestKey = (userId: string, week: string) => `${DIGEST_KIND}:${userId}:${week}`;

export function createDigests(deps: {
  store: () => Promise<AlertStore>;
  digests: () => Promise<DigestStore>;
  directory: LocationDirectory;
  users: Pick<UserStore, 'get'>;
  mailer: Mailer;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** The dashboard's origin, for the link to Analytics. */
  origin: () => string;
}) {
  const { clock, mailer, users, logger } = deps;

  async function figures(location: RoutedLocation): Promise<DigestLocation> {
    const [week, fortnight, pending, aboveLow] = await Promise.all([
      analyticsFor(location, DIGEST_DAYS),
      analyticsFor(location, DIGEST_DAYS * 2),
      pendingCount(location),
      pendingCount(location, LOW_RATING_MAX + 1),
    ]);
    return digestLocation(location.name, week, fortnight, { total: pending, ratedAboveLow: aboveLow });
  }

  const handler: JobHandler = async ({ job }) => {
    const { userId, week } = job.payload as { userId: string; week: string };
    const preferences = await (await deps.store()).preferences(userId);
    const user = await users.get(userId);
    if (!preferences.digest || !user || !can(user.role, 'analytics:read') || !mailer.configured) return;
    // The user's time zone now (it may have changed since the job was made).
    const slot = slotOf(week, preferences.timeZone);
    const now = clock.now();
    if (now < slot.at) return { continueAt: slot.at };
    if (now - slot.at >= DIGEST_GRACE_MS) {
      logger.warn({ user: userId, week }, 'weekly digest skipped: its time passed while no process ran it');
      return;
    }
    const digests = await deps.digests();
    if (await digests.exists(userId, week)) return;
    const reach = await deps.directory.forUser(userId);
    // A failed read throws: the job runs again after a back-off, before anything was sent.
    const settled = await mapBounded(reach, 4, figures);
    const locations = settled.map((s) => {
      if (!s.ok) throw s.error;
      return s.value;
    });
    if (!(await digests.claim(userId, week))) return;
    const email = renderDigestEmail({
      week,
      locations,
      link: `${deps.origin()}/analytics?days=${DIGEST_DAYS}`,
    });
    try {
      await mailer.send({ to: user.email, ...email });
      await digests.finish(userId, week, 'sent', locations, null);
      logger.info({ user: userId, week }, 'weekly digest sent');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await digests.finish(userId, week, 'failed', locations, message);
      logger.warn({ user: userId, week, err: message }, 'weekly digest refused by the mail server');
    }
  };

  /** Jobs for every opted-in user's due and next digest (existing ones are left as they are). */
  async function plan(jobs: JobStore): Promise<number> {
    if (!mailer.configured) return 0;
    let created = 0;
    const now = clock.now();
    for (const subscriber of await (await deps.store()).digestSubscribers()) {
      for (const slot of digestSlots(now, subscriber.timeZone)) {
        const id = await jobs.enqueue({
          kind: DIGEST_KIND,
          uniqueKey: digestKey(subscriber.userId, slot.week),
          payload: { userId: subscriber.userId, week: slot.week },
          runAt: slot.at,
          maxAttempts: 5,
        });
        if (id !== null) created++;
      }
    }
    return created;
  }

  return { handler, plan };
}
