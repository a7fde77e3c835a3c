import { FakeClock } from '@review-desk/server/clock';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { DEFAULT_ALERT_PREFERENCES } from '@review-desk/shared/alerts';
import { beforeEach, expect, it } from 'vitest';
import { recipients } from './decide.ts';
import { ALERT_MIGRATIONS, createAlertStore, type SeenReview } from './store.ts';

const review = (id: string, rating: number): SeenReview => ({
  id,
  rating,
  author: `Author ${id}`,
  excerpt: `Text ${id}`,
  reviewDate: '2026-11-25T10:00:00.000Z',
});

describeEngines('alert store', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [ALERT_MIGRATIONS] });
  const clock = new FakeClock(Date.parse('2026-11-25T10:00:00Z'), { frozen: true });
  const store = () => createAlertStore(database().db, clock);

  beforeEach(async () => {
    await database().db.exec(
      'DELETE FROM alerts; DELETE FROM alert_seen; DELETE FROM alert_watches; DELETE FROM alert_preferences;',
    );
  });

  it('keeps preferences, and starts the baseline when alerts are turned on', async () => {
    const alerts = store();
    expect(await alerts.preferences('u1')).toEqual(DEFAULT_ALERT_PREFERENCES);
    await alerts.setPreferences('u1', {
      ...DEFAULT_ALERT_PREFERENCES,
      enabled: true,
      timeZone: 'Europe/Paris',
    });
    const on = clock.now();
    clock.advance(60_000);
    // A change of threshold keeps the baseline; turning off and on again starts a new one.
    await alerts.setPreferences('u1', {
      ...DEFAULT_ALERT_PREFERENCES,
      enabled: true,
      threshold: 3,
      timeZone: 'Europe/Paris',
    });
    expect((await alerts.subscribers())[0]).toMatchObject({ userId: 'u1', threshold: 3, enabledAt: on });
    await alerts.setPreferences('u1', { ...DEFAULT_ALERT_PREFERENCES, enabled: false });
    expect(await alerts.subscribers()).toEqual([]);
    clock.advance(60_000);
    await alerts.setPreferences('u1', { ...DEFAULT_ALERT_PREFERENCES, enabled: true });
    expect((await alerts.subscribers())[0]?.enabledAt).toBe(clock.now());
  });

  it('a user who has not chosen has their role’s default from their account’s creation; their own choice replaces it', async () => {
    const alerts = store();
    const created = clock.now() - 86_400_000;
    const owner = { userId: 'owner-1', since: created };
    expect(await alerts.subscribers([owner])).toEqual([
      { userId: 'owner-1', threshold: 2, channel: 'email', enabledAt: created },
    ]);
    expect(await alerts.hasChosen('owner-1')).toBe(false);
    expect(await alerts.enabledAt('owner-1', created)).toBe(created);
    // Saving with alerts still on keeps the baseline the default gave; turning them off removes the user.
    await alerts.setPreferences(
      'owner-1',
      { ...DEFAULT_ALERT_PREFERENCES, enabled: true, threshold: 1 },
      created,
    );
    expect(await alerts.subscribers([owner])).toEqual([
      { userId: 'owner-1', threshold: 1, channel: 'email', enabledAt: created },
    ]);
    await alerts.setPreferences('owner-1', { ...DEFAULT_ALERT_PREFERENCES, enabled: false }, created);
    expect(await alerts.subscribers([owner])).toEqual([]);
    expect(await alerts.enabledAt('owner-1', created)).toBeNull();
    expect(await alerts.hasChosen('owner-1')).toBe(true);
  });

  it('the first poll is the baseline; later new reviews alert once per user, whatever is polled again', async () => {
    const alerts = store();
    await alerts.setPreferences('u1', { ...DEFAULT_ALERT_PREFERENCES, enabled: true });
    await alerts.setPreferences('u2', { ...DEFAULT_ALERT_PREFERENCES, enabled: true, channel: 'in_app' });
    const subscribers = await alerts.subscribers();
    const decide = (r: SeenReview, previous: number) => recipients(r, previous, subscribers, () => true);
    const email = () => 'none' as const;
    /** One poll of the main location, a second after the last. */
    const poll = (reviews: SeenReview[]) => {
      clock.advance(1_000);
      return alerts.recordPoll('main', clock.now(), reviews, decide, email);
    };

    const first = await poll([review('a', 1), review('b', 5)]);
    expect(first).toEqual({ baseline: true, fresh: 2, raised: [] });

    const second = await poll([review('c', 1), review('d', 4), review('a', 1)]);
    expect(second.baseline).toBe(false);
    expect(second.fresh).toBe(2);
    expect(second.raised.map((r) => [r.userId, r.id])).toEqual([
      ['u1', 'c'],
      ['u2', 'c'],
    ]);
    // The same page again (a retried poll, another process): nothing new.
    const again = await poll([review('c', 1), review('a', 1)]);
    expect(again.raised).toEqual([]);
    // Another location's baseline is its own.
    const other = await alerts.recordPoll('airport', clock.now(), [review('c', 1)], decide, email);
    expect(other.baseline).toBe(true);
    expect(other.raised).toEqual([]);

    const listed = await alerts.list('u1', 'all');
    expect(listed.unread).toBe(1);
    expect(listed.alerts).toEqual([
      {
        id: expect.any(Number),
        location: 'main',
        reviewId: 'c',
        rating: 1,
        author: 'Author c',
        excerpt: 'Text c',
        reviewDate: '2026-11-25T10:00:00.000Z',
        createdAt: expect.any(Number),
        read: false,
      },
    ]);
    // Only within the user's reach.
    expect((await alerts.list('u1', ['airport'])).alerts).toEqual([]);
    expect((await alerts.list('u1', [])).unread).toBe(0);
  });

  it('marks read only the user’s own alerts', async () => {
    const alerts = store();
    await alerts.setPreferences('u1', { ...DEFAULT_ALERT_PREFERENCES, enabled: true });
    await alerts.setPreferences('u2', { ...DEFAULT_ALERT_PREFERENCES, enabled: true });
    const subscribers = await alerts.subscribers();
    const decide = (r: SeenReview, previous: number) => recipients(r, previous, subscribers, () => true);
    clock.advance(1_000);
    await alerts.recordPoll('main', clock.now(), [], decide, () => 'none');
    clock.advance(1_000);
    await alerts.recordPoll('main', clock.now(), [review('x', 1), review('y', 2)], decide, () => 'pending');
    const u1 = await alerts.list('u1', 'all');
    const u2 = await alerts.list('u2', 'all');
    expect(await alerts.markRead('u2', { ids: u1.alerts.map((a) => a.id) })).toBe(0);
    expect(await alerts.markRead('u1', { ids: [u1.alerts[0]!.id] })).toBe(1);
    expect((await alerts.list('u1', 'all')).unread).toBe(1);
    expect(await alerts.markRead('u2', { all: true })).toBe(2);
    expect((await alerts.list('u2', 'all')).alerts.every((a) => a.read)).toBe(true);
    expect(u2.unread).toBe(2);
    await alerts.forgetUser('u1');
    expect((await alerts.list('u1', 'all')).alerts).toEqual([]);
    expect(await alerts.preferences('u1')).toEqual(DEFAULT_ALERT_PREFERENCES);
  });

  it('is active for a user once each of their locations has polled since they turned alerts on', async () => {
    const alerts = store();
    const on = clock.now();
    expect(await alerts.activeSince(['main', 'airport'], on)).toBeNull();
    await alerts.recordPoll(
      'main',
      on - 1,
      [],
      () => [],
      () => 'none',
    );
    await alerts.recordPoll(
      'airport',
      on + 5,
      [],
      () => [],
      () => 'none',
    );
    // main's last poll started before alerts were on: not yet.
    expect(await alerts.activeSince(['main', 'airport'], on)).toBeNull();
    await alerts.recordPoll(
      'main',
      on + 9,
      [],
      () => [],
      () => 'none',
    );
    expect(await alerts.activeSince(['main', 'airport'], on)).toBe(on + 5);
    expect(await alerts.activeSince([], on)).toBeNull();
  });

  it('counts failures in a row and clears them on success', async () => {
    const alerts = store();
    expect(await alerts.recordFailure('main', 'The API answered 429')).toBe(1);
    expect(await alerts.recordFailure('main', 'The API answered 429')).toBe(2);
    expect(await alerts.watch('main')).toEqual({
      polledAt: null,
      failures: 2,
      lastError: 'The API answered 429',
    });
    await alerts.recordPoll(
      'main',
      clock.now(),
      [],
      () => [],
      () => 'none',
    );
    expect(await alerts.watch('main')).toEqual({ polledAt: clock.now(), failures: 0, lastError: null });
  });
});
