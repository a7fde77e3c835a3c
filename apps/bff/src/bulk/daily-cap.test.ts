import { randomUUID } from 'node:crypto';
import { FakeClock } from '@review-desk/server/clock';
import type { ClaimedJob } from '@review-desk/server/jobs/store';
import { schedulingMigrations } from '@review-desk/server/jobs/store';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import pino from 'pino';
import { expect, it } from 'vitest';
import { acceptedSend } from '../../test/support/accepted-send.ts';
import type { Delivery, DeliveryResult } from '../proxy/send.ts';
import { jobView } from './routes.ts';
import { BULK_MIGRATIONS, createBulkStore } from './store.ts';
import { bulkWorker, type Sender } from './worker.ts';

const UNLIMITED = { userLists: 1e9, locationLists: 1e9, userRows: 1e9, locationRows: 1e9 };

// "At most N a day" on a fake clock: the worker sends a day's share, then its run ends due at the
// next day's start on the job's time zone (so the jobs table, under its lease, brings it back);
// the job's view says when it goes on.

const silent = pino({ level: 'silent' });

function acceptingSender(sent: string[]): Sender {
  return {
    async deliver(input: Delivery): Promise<DeliveryResult> {
      sent.push(input.send.customerEmail as string);
      return acceptedSend();
    },
  };
}

describeEngines('a list send with a daily cap', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [schedulingMigrations, BULK_MIGRATIONS] });

  it('sends N a day and is due again at the next midnight of its time zone', async () => {
    const { db } = database();
    // 22:30 in New York on Tue 1 Dec 2026 (03:30 UTC on the 2nd).
    const clock = new FakeClock(Date.parse('2026-12-02T03:30:00Z'));
    const store = createBulkStore(db, () => clock.now());
    const sent: string[] = [];
    const created = await store.create(
      {
        id: randomUUID(),
        location: 'main',
        channel: 'email',
        skipRecent: false,
        dailyCap: 3,
        timeZone: 'America/New_York',
        createdBy: 'u1',
        createdByEmail: 'owner@example.com',
        rows: Array.from({ length: 7 }, (_, i) => ({
          send: { channel: 'email' as const, customerEmail: `cap-${i}@example.com` },
          contactMasked: `cap-${i}@…`,
        })),
      },
      UNLIMITED,
    );
    const worker = bulkWorker({
      store,
      owner: 'one',
      senderFor: async () => acceptingSender(sent),
      recentlySent: async () => null,
      ratePerMinute: 100_000,
      downBoundMs: 60_000,
      stopping: new AbortController().signal,
      logger: silent,
      clock,
    });
    const run = (payload: unknown) =>
      worker({ job: { id: 1, payload } as unknown as ClaimedJob, signal: new AbortController().signal });

    const first = await run({ id: created.id, run: 1 });
    expect(sent).toEqual(['cap-0@example.com', 'cap-1@example.com', 'cap-2@example.com']);
    // Midnight in New York (05:00 UTC, EST) on Wed 2 Dec.
    const midnight = Date.parse('2026-12-02T05:00:00Z');
    expect(first).toMatchObject({ continueAt: midnight, payload: { id: created.id, run: 1 } });
    const waiting = await jobView(store, (await store.get(created.id))!, 'main');
    expect(waiting).toMatchObject({
      status: 'running',
      dailyCap: 3,
      waitingUntil: '2026-12-02T05:00:00.000Z',
    });
    expect(waiting.counts, JSON.stringify(waiting.counts)).toMatchObject({ sent: 3, pending: 4 });

    // Run early (a stray wake before midnight): nothing more goes out today.
    clock.set(midnight - 60_000);
    expect(await run({ id: created.id, run: 1 })).toMatchObject({ continueAt: midnight });
    expect(sent).toHaveLength(3);

    clock.set(midnight);
    expect(await run({ id: created.id, run: 1 })).toMatchObject({
      continueAt: Date.parse('2026-12-03T05:00:00Z'),
    });
    expect(sent).toHaveLength(6);
    expect((await jobView(store, (await store.get(created.id))!, 'main')).waitingUntil).toBe(
      '2026-12-03T05:00:00.000Z',
    );

    clock.set(Date.parse('2026-12-03T05:00:00Z'));
    expect(await run({ id: created.id, run: 1 })).toBeUndefined();
    expect(sent).toHaveLength(7);
    const done = await jobView(store, (await store.get(created.id))!, 'main');
    expect(done).toMatchObject({ status: 'done', waitingUntil: null });
    expect(new Set(sent).size).toBe(7);
  });

  it('never says it waits for tomorrow beside fewer rows sent than the cap, whatever settles while it is read', async () => {
    const { db } = database();
    const clock = new FakeClock(Date.parse('2026-12-01T15:00:00Z'));
    const store = createBulkStore(db, () => clock.now());
    const created = await store.create(
      {
        id: randomUUID(),
        location: 'main',
        channel: 'email',
        skipRecent: false,
        dailyCap: 2,
        timeZone: 'America/New_York',
        createdBy: 'u1',
        createdByEmail: 'owner@example.com',
        rows: Array.from({ length: 3 }, (_, i) => ({
          send: { channel: 'email' as const, customerEmail: `race-${i}@example.com` },
          contactMasked: `race-${i}@…`,
        })),
      },
      UNLIMITED,
    );
    for (const index of [0, 1]) expect(await store.claimRow(created.id, index, 'w')).toBe(true);
    await store.settleRow(created.id, 0, 'w', { outcome: 'sent' });
    // The second row of the day settles just after the view's first read, whichever read that is.
    let settled = false;
    const settleAfterFirstRead = <T>(read: Promise<T>): Promise<T> =>
      read.then(async (value) => {
        if (!settled) {
          settled = true;
          await store.settleRow(created.id, 1, 'w', { outcome: 'sent' });
        }
        return value;
      });
    const racing: typeof store = {
      ...store,
      counts: (id, total) => settleAfterFirstRead(store.counts(id, total)),
      sentSince: (id, since) => settleAfterFirstRead(store.sentSince(id, since)),
    };
    const view = await jobView(racing, (await store.get(created.id))!, 'main');
    expect(settled).toBe(true);
    // Either moment is true alone: not waiting yet, or waiting with both rows counted.
    expect(view.waitingUntil === null || view.counts.sent >= 2, JSON.stringify(view)).toBe(true);
    // Read again, the view says both: today's two went, and the next goes at midnight.
    expect(await jobView(store, (await store.get(created.id))!, 'main')).toMatchObject({
      waitingUntil: '2026-12-02T05:00:00.000Z',
      counts: { sent: 2, pending: 1 },
    });
  });
});
