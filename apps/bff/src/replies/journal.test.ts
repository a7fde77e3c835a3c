import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import { BUILT_IN_SAVED_REPLIES } from '@review-desk/shared';
import { beforeEach, expect, it } from 'vitest';
import { ACTIONS_SHOWN, createReviewJournal, REPLY_MIGRATIONS } from './journal.ts';
import { createSavedReplies } from './saved.ts';

// Who answered what, on both engines: each action's outcome, a location's history bounded, a
// flood of history dropped after its retention, an entry left in flight turned unknown; and the
// saved replies, replaced as a list, the built-in ones while none is stored.

describeEngines('review journal', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [REPLY_MIGRATIONS] });
  const journal = () => createReviewJournal(database().db);
  const start = (n: number) => ({
    location: 'main',
    reviewId: 'rev_7',
    userId: `u${n % 3}`,
    userEmail: `user${n % 3}@example.com`,
    action: 'reply' as const,
    text: `Reply ${n}`,
    key: null,
  });

  beforeEach(async () => {
    await database().db.exec('DELETE FROM review_actions; DELETE FROM saved_replies;');
  });

  it('records who asked for what and how it went, newest first, at most ACTIONS_SHOWN per review', async () => {
    const t0 = Date.UTC(2030, 0, 1);
    for (let i = 0; i < ACTIONS_SHOWN + 10; i++) {
      const id = await journal().begin(start(i), t0 + i);
      await journal().finish(
        id,
        { outcome: 'done', httpStatus: 200, replyState: 'posted', error: null },
        t0 + i,
      );
    }
    await journal().begin({ ...start(0), reviewId: 'rev_8' }, t0);
    const shown = await journal().list('main', 'rev_7');
    expect(shown).toHaveLength(ACTIONS_SHOWN);
    expect(shown[0]).toMatchObject({
      by: `user${(ACTIONS_SHOWN + 9) % 3}@example.com`,
      action: 'reply',
      text: `Reply ${ACTIONS_SHOWN + 9}`,
      outcome: 'done',
      replyState: 'posted',
    });
    expect(await journal().list('other', 'rev_7')).toEqual([]);
  });

  it('turns an entry left in flight unknown, and drops a flood of history after its retention', async () => {
    const now = Date.UTC(2030, 5, 1);
    const stuck = await journal().begin(start(1), now - 60_000);
    for (let i = 0; i < 500; i++) await journal().begin(start(i), now - 200 * 86_400_000 + i);
    await journal().sweep(15_000, 180 * 86_400_000, now);
    const left = await journal().list('main', 'rev_7');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ id: stuck, outcome: 'unknown' });
  });

  it('keeps each location’s saved replies as a list; the built-in ones when none is stored', async () => {
    const saved = createSavedReplies(database().db);
    expect(await saved.of('main')).toEqual({ replies: BUILT_IN_SAVED_REPLIES, builtIn: true });
    const mine = [{ title: 'Low', text: 'Sorry, {first_name}.', minRating: 1, maxRating: 2 }];
    await saved.replace('main', mine, 'owner@example.com');
    expect(await saved.of('main')).toEqual({ replies: mine, builtIn: false });
    expect((await saved.of('airport')).builtIn).toBe(true);
    await saved.replace('main', [], 'owner@example.com');
    expect((await saved.of('main')).builtIn).toBe(true);
  });
});
