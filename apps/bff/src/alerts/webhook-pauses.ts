import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import type { WebhookEndpoint } from '@review-desk/shared';
import { locationPrefix } from '@review-desk/shared/location-paths';
import type { Logger } from 'pino';
import type { UserStore } from '../auth/users.ts';
import type { LocationDirectory, RoutedLocation } from '../locations/directory.ts';
import { renderPauseEmail } from './email.ts';
import type { Mailer } from './mailer.ts';
import { UpstreamFailure, webhookEndpoints } from './upstream.ts';

// Telling a location's owners that one of its webhook endpoints was paused (docs/alerts.md). The
// service pauses an endpoint after about three days of failed deliveries; each poll of a location
// also reads its endpoints, and a pause not yet told (the endpoint and its pausedAt, recorded by
// one INSERT … ON CONFLICT before any email) is emailed to every owner who can reach the
// location: once per pause, whatever restarts or other processes do. A location whose key or
// service has no webhooks (403, 404) has nothing to tell.

export type PauseCheck =
  | { kind: 'checked'; paused: number; told: number; emailed: number }
  | { kind: 'none'; reason: 'no-location' | 'no-webhooks' | 'upstream-failed' };

export type PauseNoticeDeps = {
  db: () => Promise<Database>;
  directory: LocationDirectory;
  users: Pick<UserStore, 'list'>;
  mailer: Mailer;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn'>;
  origin: () => string;
};

/** The pauses told (webhook_pause_notices): at most one row per paused endpoint of a location. */
export function createPauseStore(db: Database, clock: Clock) {
  return {
    /** Records this location's paused endpoints; returns the pauses no call had recorded before. */
    async record(location: string, paused: readonly WebhookEndpoint[]): Promise<WebhookEndpoint[]> {
      return db.transaction(async (tx) => {
        const fresh: WebhookEndpoint[] = [];
        for (const endpoint of paused) {
          const row = await tx.get(
            `INSERT INTO webhook_pause_notices (location, endpoint_id, paused_at, told_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (location, endpoint_id) DO UPDATE SET paused_at = excluded.paused_at, told_at = excluded.told_at
             WHERE webhook_pause_notices.paused_at <> excluded.paused_at RETURNING endpoint_id`,
            location,
            endpoint.id,
            endpoint.pausedAt ?? '',
            clock.now(),
          );
          if (row) fresh.push(endpoint);
        }
        // Resumed or removed endpoints: their rows go, so a later pause is told again.
        const keep = paused.map((_, i) => `$${i + 2}`).join(', ');
        await tx.run(
          `DELETE FROM webhook_pause_notices WHERE location = $1${keep ? ` AND endpoint_id NOT IN (${keep})` : ''}`,
          location,
          ...paused.map((endpoint) => endpoint.id),
        );
        return fresh;
      });
    },
  };
}

export function createPauseNotices(deps: PauseNoticeDeps) {
  const { directory, users, mailer, logger } = deps;
  let store: ReturnType<typeof createPauseStore> | undefined;

  async function owners(location: RoutedLocation) {
    const found = [];
    for (const user of await users.list()) {
      if (user.role !== 'owner') continue;
      const reach = await directory.forUser(user.id);
      if (reach.some((l) => l.id === location.id)) found.push(user);
    }
    return found;
  }

  async function tell(location: RoutedLocation, endpoint: WebhookEndpoint): Promise<number> {
    if (!mailer.configured) return 0;
    const email = renderPauseEmail({
      locationName: location.name,
      url: endpoint.url,
      pausedAt: endpoint.pausedAt ?? 'unknown',
      reason: endpoint.pausedReason,
      link: `${deps.origin()}${locationPrefix(location.slug)}/settings`,
    });
    let emailed = 0;
    for (const owner of await owners(location)) {
      try {
        await mailer.send({ to: owner.email, ...email });
        emailed++;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        logger.warn(
          { endpoint: endpoint.id, err: message },
          'webhook pause email refused by the mail server',
        );
      }
    }
    return emailed;
  }

  /** One check of one location (by id); never throws for an upstream failure. */
  return async function check(id: string): Promise<PauseCheck> {
    const location = await directory.byId(id);
    if (!location) return { kind: 'none', reason: 'no-location' };
    let endpoints: WebhookEndpoint[];
    try {
      endpoints = await webhookEndpoints(location);
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      if (error.status === 403 || error.status === 404) return { kind: 'none', reason: 'no-webhooks' };
      logger.warn({ location: location.slug, err: error.message }, 'reading webhook endpoints failed');
      return { kind: 'none', reason: 'upstream-failed' };
    }
    const paused = endpoints.filter((endpoint) => endpoint.state === 'paused');
    store ??= createPauseStore(await deps.db(), deps.clock);
    const fresh = await store.record(id, paused);
    let emailed = 0;
    for (const endpoint of fresh) {
      logger.info(
        { location: location.slug, endpoint: endpoint.id },
        'webhook endpoint paused; telling its owners',
      );
      emailed += await tell(location, endpoint);
    }
    return { kind: 'checked', paused: paused.length, told: fresh.length, emailed };
  };
}
