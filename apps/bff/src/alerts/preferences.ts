import type { Clock } from '@review-desk/server/clock';
import type { Database } from '@review-desk/server/db/types';
import {
  type AlertChannel,
  type AlertPreferences,
  DEFAULT_ALERT_PREFERENCES,
} from '@review-desk/shared/alerts';

// The alert_preferences table: each user's choice, and who has alerts on.

export type Subscriber = {
  userId: string;
  threshold: number;
  channel: AlertChannel;
  /** When alerts were turned on (service clock). */
  enabledAt: number;
};

type PreferenceRow = {
  user_id: string;
  enabled: number;
  threshold: number;
  channel: AlertChannel;
  time_zone: string;
  digest: number;
  enabled_at: number | null;
};

function toPreferences(row: PreferenceRow | undefined): AlertPreferences {
  if (!row) return { ...DEFAULT_ALERT_PREFERENCES };
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
  const enabled = db.prepare(
    'SELECT user_id, threshold, channel, enabled_at FROM alert_preferences WHERE enabled = 1 ORDER BY user_id',
  );

  return {
    async preferences(userId: string): Promise<AlertPreferences> {
      return toPreferences(await preferenceOf.get<PreferenceRow>(userId));
    },

    /** Saves a user's choice; turning alerts on (again) starts their baseline now. */
    async setPreferences(userId: string, next: AlertPreferences): Promise<AlertPreferences> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const before = await tx.get<PreferenceRow>(
          'SELECT user_id, enabled, threshold, channel, time_zone, digest, enabled_at FROM alert_preferences WHERE user_id = $1',
          userId,
        );
        const wasOn = before !== undefined && Number(before.enabled) === 1;
        const enabledAt = next.enabled ? (wasOn ? Number(before.enabled_at ?? now) : now) : null;
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

    /** When the user's alerts were turned on; null while they are off. */
    async enabledAt(userId: string): Promise<number | null> {
      const row = await db.get<{ enabled_at: number | null }>(
        'SELECT enabled_at FROM alert_preferences WHERE user_id = $1 AND enabled = 1',
        userId,
      );
      return row?.enabled_at == null ? null : Number(row.enabled_at);
    },

    /** Users with alerts on. */
    async subscribers(): Promise<Subscriber[]> {
      const rows = await enabled.all<{
        user_id: string;
        threshold: number;
        channel: AlertChannel;
        enabled_at: number | null;
      }>();
      return rows.map((r) => ({
        userId: r.user_id,
        threshold: Number(r.threshold),
        channel: r.channel,
        enabledAt: Number(r.enabled_at ?? 0),
      }));
    },
  };
}
