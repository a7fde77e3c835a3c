import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_BFF_MIGRATIONS } from '../store/database.ts';
import { type ClaimInput, createJournal, orphanStaleSql } from './journal.ts';

// The journal's in-flight entries: one index holds them (sends_owner_in_flight), and every sweep
// that turns them unknown finds them through it, on both engines.

const claim = (key: string, userId = 'u1'): ClaimInput => ({
  userId,
  sentBy: 'ana@example.com',
  key,
  fingerprint: `fp-${key}`,
  channel: 'sms',
  customerName: null,
  contactMasked: '+1 ••• ••• 1234',
  phoneHash: 'phone-hash',
  emailHash: null,
  location: '',
});

describeEngines('the send journal’s in-flight entries', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: ALL_BFF_MIGRATIONS });
  const outcomes = async () =>
    Object.fromEntries(
      (
        await database().db.all<{ idem_key: string; outcome: string }>(
          'SELECT idem_key, outcome FROM sends ORDER BY idem_key',
        )
      ).map((row) => [row.idem_key, row.outcome]),
    );

  beforeEach(async () => {
    await database().db.exec('DELETE FROM sends');
  });

  it('keeps one index of the in-flight rows: a claim and its outcome write no second one', async () => {
    const indexes =
      dialect === 'sqlite'
        ? await database().db.all<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sends'",
          )
        : await database().db.all<{ name: string }>(
            "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'sends'",
          );
    const names = indexes.map((index) => index.name);
    expect(names).toContain('sends_owner_in_flight');
    expect(names).not.toContain('sends_in_flight');
  });

  it('turns only in-flight entries past the deadline unknown, whichever instance claimed them', async () => {
    const here = createJournal(database().db, 'instance-a');
    const there = createJournal(database().db, 'instance-b');
    const a = await here.claim(claim('a'));
    const b = await there.claim(claim('b', 'u2'));
    const done = await here.claim(claim('done'));
    await here.finish(done!, { outcome: 'sent', httpStatus: 201 });
    // Entries claimed before the deadline (all three, seen from 10 s on) with a 5 s allowance.
    const swept = await here.orphanStale(5_000, Date.now() + 10_000);
    expect([a, b, swept]).toEqual([expect.any(String), expect.any(String), 2]);
    expect(await outcomes()).toEqual({ a: 'unknown', b: 'unknown', done: 'sent' });
    // A fresh claim is not past its deadline.
    await here.claim(claim('fresh'));
    expect(await here.orphanStale(5_000)).toBe(0);
    expect((await outcomes()).fresh).toBe('in_flight');
  });
});

describe('the stale sweep on SQLite', () => {
  const database = useTestDatabase('sqlite', { migrations: ALL_BFF_MIGRATIONS });

  it('reads the in-flight index, not the whole history', async () => {
    const plan = await database().db.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN ${orphanStaleSql('sqlite')}`,
      'stale',
      0,
      0,
    );
    expect(plan.map((step) => step.detail).join(' | ')).toMatch(/USING INDEX sends_owner_in_flight/);
  });
});
