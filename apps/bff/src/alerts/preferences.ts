import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import {
  type AlertChannel,
  type AlertPreferences,
  DEFAULT_ALERT_PREFERENCES,
} from '@review-desk/shared/alerts';

// The alert_preferences table: each user's choice, and who has alerts on. A user with no row has
// not chosen: their role's default applies (shared defaultAlertPreferences; owners and managers
// on, since their account exists), given by the caller, who knows the users and their roles.

export type Subscriber = {
  userId: string;
  threshold: number;
  channel: AlertChannel;
  /** When alerts were turned on (service clock). */
  enabledAt: number;
};

/** A user who has not chosen and whose role has alerts on by default, since when (their account's creation). */
export type OnByDefault = { userId: string; since: number };

type PreferenceRow = {
  user_id: string;
  enabled: number;
  threshold: number;
  channel: AlertChannel;
  time_zone: string;
  digest: number;
  enabled_at: number | null;
};

function toPreferences(row: PreferenceRow | undefined, fallback: AlertPreferences): AlertPreferences {
  if (!row) return { ...fallback };
  return {
    enabled: Number(row.enabled) === 1,
    threshold: Number(row.threshold),
    channel: row.channel,
    timeZone: row.time_zone,
    digest: Number(row.digest) === 1,
  };
}

export function createPreferenceStore(db: Database, clock: Clock) {
  const preferenceOf = db.prepare(
    'SELECT user_id, enabled, threshold, channel, time_zone, digest, enabled_at FROM alert_preferences WHERE user_id = $1',
  );
  const chosen = db.prepare('SELECT user_id, enabled, threshold, channel, enabled_at FROM alert_preferences');

  return {
    /** The user's choice; `fallback` (their role's default) while they have made none. */
    async preferences(
      userId: string,
      fallback: AlertPreferences = DEFAULT_ALERT_PREFERENCES,
    ): Promise<AlertPreferences> {
      return toPreferences(await preferenceOf.get<PreferenceRow>(userId), fallback);
    },

    /** Whether the user has saved a choice of their own. */
    async hasChosen(userId: string): Promise<boolean> {
      return (await preferenceOf.get<PreferenceRow>(userId)) !== undefined;
    },

    /**
     * Saves a user's choice; turning alerts on (again) starts their baseline now. `onByDefault`:
     * since when alerts were on by the role's default for a user saving for the first time (null:
     * off), so keeping them on keeps that baseline.
     */
    async setPreferences(
      userId: string,
      next: AlertPreferences,
      onByDefault: number | null = null,
    ): Promise<AlertPreferences> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const before = await tx.get<PreferenceRow>(
          'SELECT user_id, enabled, threshold, channel, time_zone, digest, enabled_at FROM alert_preferences WHERE user_id = $1',
          userId,
        );
        const onSince =
          before === undefined
            ? onByDefault
            : Number(before.enabled) === 1
              ? Number(before.enabled_at ?? now)
              : null;
        const enabledAt = next.enabled ? (onSince ?? now) : null;
        await tx.run(
          `INSERT INTO alert_preferences (user_id, enabled, threshold, channel, time_zone, digest, enabled_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, threshold = excluded.threshold,
             channel = excluded.channel, time_zone = excluded.time_zone, digest = excluded.digest,
             enabled_at = excluded.enabled_at, updated_at = excluded.updated_at`,
          userId,
          next.enabled ? 1 : 0,
          next.threshold,
          next.channel,
          next.timeZone,
          next.digest ? 1 : 0,
          enabledAt,
          now,
        );
        return { ...next };
      });
    },

    /** Users with the weekly digest on, and their time zones. */
    async digestSubscribers(): Promise<{ userId: string; timeZone: string }[]> {
      const rows = await db.all<{ user_id: string; time_zone: string }>(
        'SELECT user_id, time_zone FROM alert_preferences WHERE digest = 1 ORDER BY user_id',
      );
      return rows.map((r) => ({ userId: r.user_id, timeZone: r.time_zone }));
    },

    /** When the user's alerts were turned on (`onByDefault` while they have not chosen); null while off. */
    async enabledAt(userId: string, onByDefault: number | null = null): Promise<number | null> {
      const row = await preferenceOf.get<PreferenceRow>(userId);
      if (!row) return onByDefault;
      return Number(row.enabled) === 1 ? Number(row.enabled_at ?? 0) : null;
    },

    /** Users with alerts on: by their choice, or by their role's default while they have not chosen. */
    async subscribers(onByDefault: readonly OnByDefault[] = []): Promise<Subscriber[]> {
      const rows = await chosen.all<{
        user_id: string;
        enabled: number;
        threshold: number;
        channel: AlertChannel;
        enabled_at: number | null;
      }>();
      const choices = new Set(rows.map((r) => r.user_id));
      const byChoice = rows
        .filter((r) => Number(r.enabled) === 1)
        .map((r) => ({
          userId: r.user_id,
          threshold: Number(r.threshold),
          channel: r.channel,
          enabledAt: Number(r.enabled_at ?? 0),
        }));
      const byDefault = onByDefault
        .filter((user) => !choices.has(user.userId))
        .map((user) => ({
          userId: user.userId,
          threshold: DEFAULT_ALERT_PREFERENCES.threshold,
          channel: DEFAULT_ALERT_PREFERENCES.channel,
          enabledAt: user.since,
        }));
      return [...byChoice, ...byDefault].sort((a, b) =>
        a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0,
      );
    },
  };
}
