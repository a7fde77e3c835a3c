import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '@review-desk/server/errors';
import { createJobRunner } from '@review-desk/server/jobs/runner';
import { jobStore, schedulingMigrations } from '@review-desk/server/jobs/store';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import type { SendRequest } from '@review-desk/shared';
import pino from 'pino';
import { expect, it } from 'vitest';
import { acceptedSend } from '../../test/support/accepted-send.ts';
import type { Delivery, DeliveryResult } from '../proxy/send.ts';
import { BULK_MIGRATIONS, createBulkStore } from './store.ts';
import { BULK_JOB_KIND, bulkWorker, type Sender } from './worker.ts';

const UNLIMITED = { userLists: 1e9, locationLists: 1e9, userRows: 1e9, locationRows: 1e9 };

// The list send's store and worker on both engines: two runners (two processes' worth of
// leases) on one job never send a row twice, and the job's controls do what they say.

const silent = pino({ level: 'silent' });

function rows(n: number, tag = 'r'): { send: SendRequest; contactMasked: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    send: { channel: 'email', customerEmail: `${tag}-${i}@example.com` },
    contactMasked: `${tag}-${i}@…`,
  }));
}

/** An upstream behind the journal's key rule: a key sends once, later attempts replay it. */
function countingSender(delayMs = 2) {
  const sent = new Map<string, number>();
  const keys = new Set<string>();
  const sender: Sender = {
    async deliver(input: Delivery): Promise<DeliveryResult> {
      if (keys.has(input.key)) return { kind: 'refused', error: new AppError('idempotency_in_flight') };
      keys.add(input.key);
      await sleep(delayMs); // stand-in: an upstream that takes a moment to answer
      const to = input.send.customerEmail as string;
      sent.set(to, (sent.get(to) ?? 0) + 1);
      return acceptedSend();
    },
  };
  return { sender, sent };
}

describeEngines('list sends', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [schedulingMigrations, BULK_MIGRATIONS] });

  function job(n: number, tag: string) {
    return {
      id: randomUUID(),
      location: 'main',
      channel: 'email' as const,
      skipRecent: false,
      dailyCap: null,
      timeZone: 'UTC',
      createdBy: 'u1',
      createdByEmail: 'owner@example.com',
      rows: rows(n, tag),
    };
  }

  it('two runners with their own leases never both send a row of the same jobs', async () => {
    const { db } = database();
    const store = createBulkStore(db);
    const { sender, sent } = countingSender();
    const stopping = new AbortController();
    const ids: string[] = [];
    for (const tag of ['a', 'b', 'c']) {
      const created = await store.create(job(30, `${dialect}-${tag}`), UNLIMITED);
      await jobStore(db).enqueue({
        kind: BULK_JOB_KIND,
        payload: { id: created.id, run: 1 },
        uniqueKey: `bulk-send:${created.id}:1`,
      });
      ids.push(created.id);
    }
    const runners = ['one', 'two'].map((owner) =>
      createJobRunner({
        db,
        owner,
        pollMs: 20,
        concurrency: 1,
        leaseMs: 300,
        handlers: {
          [BULK_JOB_KIND]: bulkWorker({
            store,
            owner,
            senderFor: async () => sender,
            recentlySent: async () => null,
            ratePerMinute: 1_000_000,
            downBoundMs: 60_000,
            sliceMs: 50,
            stopping: stopping.signal,
            logger: silent,
          }),
        },
      }),
    );
    for (const runner of runners) runner.start();
    try {
      for (const id of ids) {
        for (let i = 0; i < 400; i++) {
          if ((await store.get(id))?.status === 'done') break;
          await sleep(25); // poll: a look again at the job
        }
        expect((await store.get(id))?.status).toBe('done');
        expect(await store.counts(id, 30)).toMatchObject({ sent: 30 });
      }
      expect(sent.size).toBe(90);
      expect(Math.max(...sent.values())).toBe(1);
      expect(
        runners.every((r) => r.ran > 0),
        'both runners took runs',
      ).toBe(true);
    } finally {
      stopping.abort();
      await Promise.all(runners.map((r) => r.stop({ timeoutMs: 1_000 })));
    }
  });

  it('a pause and an immediate resume hand the job to the new run: no row twice, none unknown', async () => {
    const { db } = database();
    const store = createBulkStore(db);
    const { sender, sent } = countingSender(15);
    const stopping = new AbortController();
    const created = await store.create(job(40, `${dialect}-resume`), UNLIMITED);
    const jobs = jobStore(db);
    await jobs.enqueue({ kind: BULK_JOB_KIND, payload: { id: created.id, run: 1 }, uniqueKey: 'r:1' });
    const runner = createJobRunner({
      db,
      owner: 'only',
      pollMs: 20,
      handlers: {
        [BULK_JOB_KIND]: bulkWorker({
          store,
          owner: 'only',
          senderFor: async () => sender,
          recentlySent: async () => null,
          ratePerMinute: 1_000_000,
          downBoundMs: 60_000,
          stopping: stopping.signal,
          logger: silent,
        }),
      },
    });
    runner.start();
    try {
      while (sent.size < 10) await sleep(5); // poll: a look again at what was sent
      // The first run is in the middle of a send; the second starts before it has finished it.
      expect(await store.pause(created.id, null)).toBe(true);
      const run = await store.resume(created.id);
      await jobs.enqueue({ kind: BULK_JOB_KIND, payload: { id: created.id, run }, uniqueKey: `r:${run}` });
      runner.wake();
      // poll: a look again at the job
      for (let i = 0; i < 400 && (await store.get(created.id))?.status !== 'done'; i++) await sleep(25);
      expect(await store.counts(created.id, 40)).toMatchObject({ sent: 40, unknown: 0 });
      expect(Math.max(...sent.values())).toBe(1);
    } finally {
      stopping.abort();
      await runner.stop({ timeoutMs: 1_000 });
    }
  });

  it('cancel skips what was not sent; retry-unknown reopens unknown rows with a new generation', async () => {
    const store = createBulkStore(database().db);
    const created = await store.create(job(3, `${dialect}-ctl`), UNLIMITED);
    expect(await store.claimRow(created.id, 0, 'w')).toBe(true);
    expect(await store.settleRow(created.id, 0, 'w', { outcome: 'unknown', code: 'upstream_timeout' })).toBe(
      true,
    );
    // A claim by another worker since: this one's outcome is not written.
    expect(await store.claimRow(created.id, 1, 'w')).toBe(true);
    expect(await store.claimRow(created.id, 1, 'v')).toBe(true);
    expect(await store.settleRow(created.id, 1, 'w', { outcome: 'sent' })).toBe(false);
    expect(await store.settleRow(created.id, 1, 'v', { outcome: 'sent' })).toBe(true);
    expect(await store.pause(created.id, null)).toBe(true);
    expect(await store.pause(created.id, null)).toBe(false);
    const retried = await store.retryUnknown(created.id);
    expect(retried).toEqual({ reopened: 1, run: null });
    expect((await store.nextOpen(created.id))?.generation).toBe(1);
    expect(await store.cancel(created.id)).toBe(true);
    const counts = await store.counts(created.id, 3);
    expect(counts).toMatchObject({ sent: 1, skipped: 2, pending: 0, unknown: 0 });
    expect(await store.resume(created.id)).toBeNull();
  });
});
