import { clockHook, FakeClock } from '@review-desk/server/clock';
import { isoTime } from '@review-desk/server/db/rows';
import { AppError } from '@review-desk/server/errors';
import { can, ok, type Role } from '@review-desk/shared';
import {
  ALERT_PATHS,
  type AlertList,
  alertPreferencesSchema,
  defaultAlertPreferences,
  markAlertsReadSchema,
  type PreferencesReply,
} from '@review-desk/shared/alerts';
import express, { Router } from 'express';
import type { Logger } from 'pino';
import type { RouteGates } from '../gates.ts';
import { readJsonBody } from '../http/body.ts';
import { gateway } from '../http/gate.ts';
import { methodNotAllowed } from '../http/method.ts';
import { named } from '../http/named.ts';
import type { LocationDirectory } from '../locations/directory.ts';
import type { Alerts } from './service.ts';

// GET/PUT /bff/notifications/preferences: the signed-in user's alert choices. GET /bff/alerts:
// their newest alerts and the unread count, only for locations they may read now. POST
// /bff/alerts/read: marks some ({ids}) or all ({all:true}) of their own alerts read.

export function alertRoutes(deps: {
  alerts: Alerts;
  directory: LocationDirectory;
  gates: RouteGates;
  logger: Pick<Logger, 'info'>;
  /** What runs scheduled work in this process, for the dev hook that drains it. */
  jobs: readonly { drain(): Promise<number> }[];
}): Router {
  const { alerts, directory } = deps;
  const router = Router();

  const reply = async (user: { id: string; role: Role }): Promise<PreferencesReply> => {
    const store = await alerts.store();
    return {
      preferences: await store.preferences(user.id, defaultAlertPreferences(user.role)),
      emailConfigured: alerts.mailer.configured,
      devOutbox: alerts.mailer.outbox !== undefined,
      digestAllowed: can(user.role, 'analytics:read'),
      saved: await store.hasChosen(user.id),
    };
  };

  router.get(ALERT_PATHS.preferences, named('alerts'), gateway(deps.gates.alerts), async (req, res) => {
    const { user } = req.ctx.session!;
    res.json(ok(await reply(user)));
  });

  router.put(
    ALERT_PATHS.preferences,
    named('alerts'),
    gateway(deps.gates['alerts.write']),
    async (req, res) => {
      const { user } = req.ctx.session!;
      const parsed = alertPreferencesSchema.safeParse(await readJsonBody(req));
      if (!parsed.success) throw AppError.validation(parsed.error);
      if (parsed.data.digest && !can(user.role, 'analytics:read'))
        throw new AppError(
          'role_forbidden',
          'The weekly digest shows analytics, which your role cannot read.',
        );
      const store = await alerts.store();
      const before = await store.preferences(user.id, defaultAlertPreferences(user.role));
      await store.setPreferences(user.id, parsed.data, await alerts.onByDefault(user.id));
      if (parsed.data.enabled && !before.enabled) await alerts.pollSoon();
      if (parsed.data.digest) await alerts.plan();
      deps.logger.info(
        { reqId: req.ctx.id, user: user.id, enabled: parsed.data.enabled, channel: parsed.data.channel },
        'notification preferences changed',
      );
      res.json(ok(await reply(user)));
    },
  );

  router.get(ALERT_PATHS.alerts, named('alerts'), gateway(deps.gates.alerts), async (req, res) => {
    const { user } = req.ctx.session!;
    const reach = await directory.forUser(user.id);
    // Alerts are bound to their location's id: only those of locations the user reaches now.
    const byId = new Map(reach.map((l) => [l.id, l]));
    const store = await alerts.store();
    const ids = reach.map((l) => l.id);
    const list = await store.list(user.id, ids);
    const enabledAt = await store.enabledAt(user.id, await alerts.onByDefault(user.id));
    const since = enabledAt === null ? null : await store.activeSince(ids, enabledAt);
    const chosen = await store.preferences(user.id, defaultAlertPreferences(user.role));
    const body: AlertList = {
      unread: list.unread,
      activeSince: isoTime(since),
      enabled: enabledAt !== null,
      threshold: chosen.threshold,
      alerts: list.alerts.map((a) => ({
        id: a.id,
        location: byId.get(a.location)?.slug ?? '',
        locationName: byId.get(a.location)?.name ?? '',
        reviewId: a.reviewId,
        rating: a.rating,
        author: a.author,
        excerpt: a.excerpt,
        reviewDate: a.reviewDate,
        createdAt: isoTime(a.createdAt),
        read: a.read,
      })),
    };
    res.set('cache-control', 'no-store').json(ok(body));
  });

  router.post(ALERT_PATHS.read, named('alerts'), gateway(deps.gates['alerts.write']), async (req, res) => {
    const { user } = req.ctx.session!;
    const parsed = markAlertsReadSchema.safeParse(await readJsonBody(req));
    if (!parsed.success) throw AppError.validation(parsed.error);
    const marked = await (await alerts.store()).markRead(user.id, parsed.data);
    res.json(ok({ marked }));
  });

  const outbox = alerts.mailer.outbox;
  if (outbox) {
    // Dev hooks without a mail server: the emails alerts and digests would have sent.
    router.get('/dev/outbox.json', (_req, res) => {
      res.set('cache-control', 'no-store').json(ok({ messages: outbox() }));
    });
  }
  if (alerts.clock instanceof FakeClock) {
    // Dev hooks only (refused in production): GET reads, POST {advanceMs} or {set} moves the clock.
    router.all('/dev/clock', express.json({ limit: '1kb' }), clockHook(alerts.clock));
    // Runs this process's due scheduled work (alerts, digests, list sends) until none is left, and
    // says how many jobs ran: a test waits on it instead of on time.
    router.post('/dev/jobs', async (_req, res) => {
      let ran = 0;
      for (const jobs of deps.jobs) ran += await jobs.drain();
      res.set('cache-control', 'no-store').json(ok({ ran }));
    });
  }

  router.all(ALERT_PATHS.preferences, methodNotAllowed('GET', 'PUT'));
  router.all(ALERT_PATHS.alerts, methodNotAllowed('GET'));
  router.all(ALERT_PATHS.read, methodNotAllowed('POST'));
  return router;
}
