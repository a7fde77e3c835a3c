import { openDatabase } from '@review-desk/server/db/open';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { beforeEach, expect, it } from 'vitest';
import { createUserRate, USER_RATE_MIGRATIONS } from './user-rate.ts';

// Each user's share of the key's rate limit, one GCRA UPSERT per user and turn of the event loop,
// on both engines.

describeEngines('the per-user share', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [USER_RATE_MIGRATIONS] });
  const clock = { now: Date.UTC(2026, 10, 25, 12) };
  const share = (perMinute = 6) => createUserRate(database().db, perMinute, () => clock.now);
  const rows = async () =>
    Number((await database().db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM user_rate'))?.n);

  beforeEach(async () => {
    clock.now = Date.UTC(2026, 10, 25, 12);
    await database().db.exec('DELETE FROM user_rate');
  });

  it('lets a user burst up to the share, then refuses with the wait; another user is not touched', async () => {
    const rate = share(6);
    const ana = [];
    for (let i = 0; i < 7; i++) ana.push(await rate.take('ana'));
    expect(ana.slice(0, 6).every((d) => d.allowed)).toBe(true);
    expect(ana[6]).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(await rate.take('bo')).toEqual({ allowed: true });
    // One interval later (60 s / 6) one more call fits, and only one.
    clock.now += 10_000;
    expect(await rate.take('ana')).toEqual({ allowed: true });
    expect((await rate.take('ana')).allowed).toBe(false);
  });

  it('counts concurrent calls exactly: every replica on the database shares one count', async () => {
    // Two limiters on one database stand for two processes.
    const [a, b] = [share(10), share(10)];
    const decisions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).take('carla')),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });

  it('counts the calls of one turn with one statement, granting the first that fit as calls one at a time would', async () => {
    const rate = share(6);
    // Four taken one at a time, then five in one turn: two of them fit, in order of arrival.
    for (let i = 0; i < 4; i++) expect((await rate.take('erin')).allowed).toBe(true);
    const turn = await Promise.all(Array.from({ length: 5 }, () => rate.take('erin')));
    expect(turn.map((d) => d.allowed)).toEqual([true, true, false, false, false]);
    expect(turn[4]).toEqual({ allowed: false, retryAfterSeconds: 10 });
    // The same calls one at a time, for another user: the same answers, the same stored time.
    const single = [];
    for (let i = 0; i < 9; i++) single.push(await rate.take('finn'));
    expect(single.slice(4)).toEqual(turn);
    const tat = async (user: string) =>
      Number(
        (
          await database().db.get<{ tat: number | string }>(
            'SELECT tat FROM user_rate WHERE user_id = $1',
            user,
          )
        )?.tat,
      );
    expect(await tat('erin')).toBe(await tat('finn'));
    expect(await tat('erin')).toBe(clock.now + 6 * 10_000);
    // A whole turn refused leaves the time where it was; one interval on, one call fits again.
    expect((await Promise.all([rate.take('erin'), rate.take('erin')])).some((d) => d.allowed)).toBe(false);
    clock.now += 10_000;
    const next = await Promise.all([rate.take('erin'), rate.take('erin'), rate.take('erin')]);
    expect(next.map((d) => d.allowed)).toEqual([true, false, false]);
  });

  it('a first turn larger than the share grants the share and no more', async () => {
    const rate = share(6);
    const turn = await Promise.all(Array.from({ length: 20 }, () => rate.take('gus')));
    expect(turn.filter((d) => d.allowed)).toHaveLength(6);
    expect(turn.slice(0, 6).every((d) => d.allowed)).toBe(true);
  });

  it('holds a turn’s calls only until its statements ran: a flood of users and calls leaves nothing waiting', async () => {
    const rate = share(5);
    const flood = Array.from({ length: 3_000 }, (_, i) => rate.take(`flood-${i % 300}`));
    expect(rate.waitingUsers()).toBe(300);
    const decisions = await Promise.all(flood);
    expect(rate.waitingUsers()).toBe(0);
    // Each of the 300 users made 10 calls: exactly 5 of each were let through.
    expect(decisions.filter((d) => d.allowed)).toHaveLength(300 * 5);
    expect(await rows()).toBe(300);
  });

  it('answers a call once its count is committed, also when a write of the same turn holds the connection', async () => {
    const rate = share(6);
    const other = await openDatabase({ url: database().url });
    try {
      const seen = async () =>
        Number(
          (
            await other.get<{ n: number | string }>(
              "SELECT COUNT(*) AS n FROM user_rate WHERE user_id = 'hana'",
            )
          )?.n,
        );
      // A transaction of the same turn (as the journal's writes are) holds SQLite's connection.
      let during = -1;
      const write = new Promise<void>((resolve) =>
        setImmediate(
          () =>
            void database()
              .db.transaction(async (tx) => {
                await tx.run(
                  "INSERT INTO user_rate (user_id, tat, allowed, granted) VALUES ('ivo', 0, 1, 1)",
                );
              })
              .then(() => resolve()),
        ),
      );
      const taken = rate.take('hana').then(async (decision) => {
        during = await seen();
        return decision;
      });
      expect(await taken).toEqual({ allowed: true });
      await write;
      // Another handle (another worker or replica) already counted the call when it was answered.
      expect(during).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('refuses a call over the share whose clock reads a moment earlier than the burst’s last (another replica)', async () => {
    const rate = share(3);
    for (let i = 0; i < 3; i++) expect((await rate.take('dana')).allowed).toBe(true);
    // Taken by a process whose clock is 5 ms behind, or that read it just before the last call.
    const behind = createUserRate(database().db, 3, () => clock.now - 5);
    expect((await behind.take('dana')).allowed).toBe(false);
  });

  it('sweeps the rows of users whose share is whole again, and survives a clock that went back', async () => {
    const rate = share(6);
    for (let i = 0; i < 50; i++) await rate.take(`user-${i}`);
    expect(await rows()).toBe(50);
    clock.now += 60_001;
    await rate.sweep();
    expect(await rows()).toBe(0);
    for (let i = 0; i < 6; i++) await rate.take('dan');
    clock.now -= 3_600_000; // an hour back: the stored time lies far ahead
    expect(await rate.take('dan')).toEqual({ allowed: true });
  });
});
