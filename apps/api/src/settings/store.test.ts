import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, expect, it } from 'vitest';
import { createSettingsStore, SETTINGS_MIGRATIONS } from './store.ts';

describeEngines('settings store', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [SETTINGS_MIGRATIONS] });
  const store = () => createSettingsStore(database().db);

  beforeEach(async () => {
    await database().db.exec('DELETE FROM business_settings');
  });

  it('has no row until a business saves, then keeps what it set and nulls for the defaults', async () => {
    expect(await store().get(1)).toBeUndefined();
    const saved = {
      smsTemplate: 'Hi {customer_name} {review_link}',
      emailSubject: null,
      emailTemplate: null,
      reminderAfterDays: 3,
      quietHours: '22:00-06:00',
      timeZone: 'Europe/Paris',
      updatedAt: 1_795_000_000_000,
    };
    await store().save(1, saved);
    expect(await store().get(1)).toEqual(saved);
    expect(await store().get(2)).toBeUndefined();
  });

  it('overwrites a business’s row on the next save', async () => {
    const base = {
      smsTemplate: null,
      emailSubject: null,
      emailTemplate: null,
      reminderAfterDays: null,
      quietHours: null,
      timeZone: null,
      updatedAt: 1,
    };
    await store().save(7, { ...base, reminderAfterDays: 2 });
    await store().save(7, { ...base, quietHours: 'off', updatedAt: 2 });
    expect(await store().get(7)).toEqual({ ...base, quietHours: 'off', updatedAt: 2 });
  });

  it('refuses a reminder delay outside 0–14 at the database too', async () => {
    await expect(
      store().save(3, {
        smsTemplate: null,
        emailSubject: null,
        emailTemplate: null,
        reminderAfterDays: 15,
        quietHours: null,
        timeZone: null,
        updatedAt: 1,
      }),
    ).rejects.toThrow();
  });
});
