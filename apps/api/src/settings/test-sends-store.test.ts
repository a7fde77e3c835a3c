import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, expect, it } from 'vitest';
import { SETTINGS_MIGRATIONS } from './store.ts';
import { createTestSendsStore, HOUR_MS, TEST_SENDS_KEPT } from './test-sends-store.ts';

// The settings tests' hourly limit and bounded rows, on both engines: exact under concurrent
// calls (the business's lock), per business, and never more than TEST_SENDS_KEPT rows each.

const message = (n: number) => ({
  channel: 'sms' as const,
  to: `+1415555${String(2000 + n)}`,
  subject: null,
  body: `Hi Alexandra Whitfield ${n}`,
  reviewLink: 'https://reviews.example.com/r/x',
});

describeEngines('settings test sends', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [SETTINGS_MIGRATIONS], poolSize: 8 });
  const store = () => createTestSendsStore(database().db);

  beforeEach(async () => {
    await database().db.exec('DELETE FROM settings_test_sends');
  });

  it('takes five in an hour, says when the oldest stops counting, and counts each business apart', async () => {
    const t0 = 1_800_000_000_000;
    const taken = [];
    for (let i = 0; i < 5; i++) taken.push(await store().reserve(1, message(i), t0 + i * 60_000, 5));
    expect(taken.map((r) => (r.ok ? r.remaining : null))).toEqual([4, 3, 2, 1, 0]);
    expect(await store().reserve(1, message(5), t0 + 30 * 60_000, 5)).toEqual({
      ok: false,
      retryAt: t0 + HOUR_MS,
    });
    expect((await store().reserve(2, message(6), t0 + 30 * 60_000, 5)).ok).toBe(true);
    // The first stops counting an hour after it went.
    expect((await store().reserve(1, message(7), t0 + HOUR_MS + 1, 5)).ok).toBe(true);

    const [first] = taken;
    if (!first?.ok) throw new Error('the first test was refused');
    await store().finish(first.id, 'failed', 'The SMS carrier refused the message.');
    const rows = await store().list({ id: first.id }, 10);
    expect(rows).toMatchObject([
      { status: 'failed', error: 'The SMS carrier refused the message.', business_id: 1 },
    ]);
    expect(await store().list({ to: message(6).to }, 10)).toMatchObject([
      { business_id: 2, status: 'sending' },
    ]);
  });

  it('gives exactly the hour’s five to a flood of simultaneous calls, and keeps few rows', async () => {
    const at = 1_800_000_000_000;
    const flood = await Promise.all(
      Array.from({ length: 40 }, (_, i) => store().reserve(7, message(i), at, 5)),
    );
    expect(flood.filter((r) => r.ok)).toHaveLength(5);
    // Hour after hour, the rows a business keeps stay bounded.
    for (let hour = 1; hour <= 6; hour++) {
      for (let i = 0; i < 5; i++) await store().reserve(7, message(i), at + hour * HOUR_MS + i, 5);
    }
    const rows = await store().list({}, 1000);
    expect(rows.filter((r) => r.business_id === 7)).toHaveLength(TEST_SENDS_KEPT);
    expect(rows[0]!.created_at).toBe(at + 6 * HOUR_MS + 4); // the newest kept
  });
});
