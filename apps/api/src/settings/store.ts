import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
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

export function createSettingsStore(db: Database) {
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
  return {
    /** The tests sent with "Send me a test" (settings_test_sends). */
    tests: createTestSendsStore(db),

    async get(businessId: number): Promise<StoredSettings | undefined> {
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
    },
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
    },
  };
}
