import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
import { type CacheOverrides, createSharedCache } from '@review-desk/server/shared-cache';
import { createTestSendsStore } from './test-sends-store.ts';

// The business_settings table (component `settings`), written for both engines. A NULL column
// follows the service's default; the store neither knows the defaults nor validates: the
// settings service does both.

export const SETTINGS_MIGRATIONS = migrationsBeside(import.meta.url, 'settings');

/** What a business has set; null: the default. */
export type StoredSettings = {
  smsTemplate: string | null;
  emailSubject: string | null;
  emailTemplate: string | null;
  reminderAfterDays: number | null;
  /** `HH:MM-HH:MM` or `off`. */
  quietHours: string | null;
  timeZone: string | null;
  updatedAt: number;
};

type Row = {
  sms_template: string | null;
  email_subject: string | null;
  email_template: string | null;
  reminder_after_days: number | string | null;
  quiet_hours: string | null;
  time_zone: string | null;
  updated_at: number | string;
};

export type SettingsStore = ReturnType<typeof createSettingsStore>;

/** The notification channel of settings changes: `{"businessId":N}`. */
export const SETTINGS_CHANNEL = 'api_settings';
/** How long a business's settings read from the database are trusted (decision 0021). */
export const SETTINGS_CACHE_MS = 1_000;
/** At most this many businesses' settings are cached. */
export const SETTINGS_CACHE_MAX = 10_000;

type SettingsEvent = { businessId: number };
const isSettingsEvent = (value: unknown): value is SettingsEvent =>
  typeof value === 'object' && value !== null && typeof (value as SettingsEvent).businessId === 'number';

export function createSettingsStore(db: Database, options: CacheOverrides = {}) {
  const select = db.prepare(
    `SELECT sms_template, email_subject, email_template, reminder_after_days, quiet_hours, time_zone, updated_at
       FROM business_settings WHERE business_id = $1`,
  );
  const upsert = db.prepare(
    `INSERT INTO business_settings
       (business_id, sms_template, email_subject, email_template, reminder_after_days, quiet_hours, time_zone, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (business_id) DO UPDATE SET
       sms_template = excluded.sms_template, email_subject = excluded.email_subject,
       email_template = excluded.email_template, reminder_after_days = excluded.reminder_after_days,
       quiet_hours = excluded.quiet_hours, time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
  );
  // Each send reads its business's words and hours: trusted for up to SETTINGS_CACHE_MS, dropped
  // at once here and in every listening process when they are saved. A business with no row is
  // cached too (its id comes from an authenticated key, and the cache is bounded).
  const cache = createSharedCache<number, StoredSettings | undefined, SettingsEvent>({
    db,
    channel: SETTINGS_CHANNEL,
    ttlMs: SETTINGS_CACHE_MS,
    max: options.cacheMax ?? SETTINGS_CACHE_MAX,
    isEvent: isSettingsEvent,
    drops: (event, _value, businessId) => businessId === event.businessId,
    now: options.cacheClock,
  });

  async function read(businessId: number): Promise<StoredSettings | undefined> {
    const row = await select.get<Row>(businessId);
    if (!row) return undefined;
    return {
      smsTemplate: row.sms_template,
      emailSubject: row.email_subject,
      emailTemplate: row.email_template,
      reminderAfterDays: row.reminder_after_days === null ? null : Number(row.reminder_after_days),
      quietHours: row.quiet_hours,
      timeZone: row.time_zone,
      updatedAt: Number(row.updated_at),
    };
  }

  return {
    /** The tests sent with "Send me a test" (settings_test_sends). */
    tests: createTestSendsStore(db),

    /** What the business set, as read at most SETTINGS_CACHE_MS ago. */
    async get(businessId: number): Promise<StoredSettings | undefined> {
      const cached = cache.get(businessId);
      if (cached) return cached.value;
      const stored = await read(businessId);
      cache.set(businessId, stored);
      return stored;
    },
    /** What the business set, read now (to change it, or show it to its owner). */
    read,
    async save(businessId: number, settings: StoredSettings): Promise<void> {
      await upsert.run(
        businessId,
        settings.smsTemplate,
        settings.emailSubject,
        settings.emailTemplate,
        settings.reminderAfterDays,
        settings.quietHours,
        settings.timeZone,
        settings.updatedAt,
      );
      await cache.changed({ businessId });
    },
    /** Hears the changes saved by every other process on the database (close it on stop). */
    listen: () => cache.listen(),
    /** How many businesses' settings this process has cached (for the bound's test). */
    cacheSize: () => cache.size(),
  };
}
