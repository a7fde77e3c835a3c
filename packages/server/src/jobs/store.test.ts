import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestDatabase, describeEngines, type TestDatabase } from '../../test-support/databases.ts';
import { FakeClock } from '../clock.ts';
import { type JobHandler, JobRunner } from './runner.ts';
import { type JobStore, jobStore, schedulingMigrations } from './store.ts';

const NIGHT = Date.parse('2030-01-01T23:00:00Z');
const MORNING = Date.parse('2030-01-02T08:00:00Z');

describeEngines('scheduled jobs', (dialect) => {
  let test: TestDatabase;
  let clock: FakeClock;
  let jobs: JobStore;
  beforeAll(async () => {
    test = await createTestDatabase(dialect, { migrations: [schedulingMigrations] });
  });
  afterAll(() => test.dispose());
  beforeEach(async () => {
    await test.db.run('DELETE FROM jobs');
    clock = new FakeClock(NIGHT, { frozen: true });
    jobs = jobStore(test.db, clock);
  });

  const runner = (handlers: Record<string, JobHandler>, options: { leaseMs?: number; owner?: string } = {}) =>
    new JobRunner({ db: test.db, clock, owner: options.owner ?? 'me', handlers, pollMs: 10_000, ...options });

  it('runs a job at its time on the service clock, not before, and once', async () => {
    const ran: unknown[] = [];
    const r = runner({ send: async ({ job }) => void ran.push(job.payload) });
    await jobs.enqueue({ kind: 'send', runAt: MORNING, payload: { requestId: 'r1' } });
    expect(await r.drain()).toBe(0);
    clock.set(MORNING);
    expect(await r.drain()).toBe(1);
    expect(await r.drain()).toBe(0);
    expect(ran).toEqual([{ requestId: 'r1' }]);
    expect((await jobs.counts()).done).toBe(1);
  });

  it('wakes when the fake clock moves, without waiting for its poll', async () => {
    const ran: number[] = [];
    const r = runner({ send: async ({ job }) => void ran.push(job.id) });
    r.start();
    await jobs.enqueue({ kind: 'send', runAt: MORNING });
    expect(await r.drain()).toBe(0);
    expect(ran).toEqual([]);
    clock.set(MORNING);
    await expect.poll(() => ran.length, { timeout: 2_000 }).toBe(1);
    await r.stop();
  });

  it('keeps up with jobs arriving while every slot is busy, without waiting for the next poll', async () => {
    const ran: number[] = [];
    const r = new JobRunner({
      db: test.db,
      clock,
      owner: 'me',
      concurrency: 2,
      pollMs: 60_000,
      handlers: { quick: async ({ job }) => void ran.push(job.id) },
    });
    r.start();
    for (let i = 0; i < 40; i++) {
      await jobs.enqueue({ kind: 'quick' });
      r.wake();
    }
    await expect.poll(() => ran.length, { timeout: 3_000 }).toBe(40);
    await r.stop();
  });

  it('creates one job per unique key, even after it ran, and cancels one that has not started', async () => {
    expect(await jobs.enqueue({ kind: 'remind', uniqueKey: 'reminder:r1', runAt: MORNING })).not.toBeNull();
    expect(await jobs.enqueue({ kind: 'remind', uniqueKey: 'reminder:r1', runAt: MORNING })).toBeNull();
    expect(await jobs.cancel('reminder:r1')).toBe(true);
    expect((await jobs.byKey('reminder:r1'))?.state).toBe('cancelled');
    clock.set(MORNING);
    expect(await runner({ remind: async () => {} }).drain()).toBe(0);
    expect(await jobs.enqueue({ kind: 'remind', uniqueKey: 'reminder:r1' })).toBeNull();
  });

  it('retries a failing job after a back-off until its attempts run out, then records it failed', async () => {
    let calls = 0;
    const r = runner({
      flaky: async () => {
        calls++;
        throw new Error(`carrier down ${calls}`);
      },
    });
    const id = (await jobs.enqueue({ kind: 'flaky', maxAttempts: 2 })) as number;
    expect(await r.drain()).toBe(1);
    expect(await jobs.get(id)).toMatchObject({ state: 'pending', attempt: 1, lastError: 'carrier down 1' });
    clock.advance(2_000);
    await r.drain();
    expect(await jobs.get(id)).toMatchObject({ state: 'failed', attempt: 2, lastError: 'carrier down 2' });
    expect(calls).toBe(2);
  });

  it('continues paced work later with a new payload, attempts starting again', async () => {
    const seen: unknown[] = [];
    const r = runner({
      bulk: async ({ job }) => {
        const { row } = job.payload as { row: number };
        seen.push(row);
        return row < 2 ? { continueAt: clock.now() + 60_000, payload: { row: row + 1 } } : undefined;
      },
    });
    const id = (await jobs.enqueue({ kind: 'bulk', payload: { row: 0 } })) as number;
    await r.drain();
    expect(await jobs.get(id)).toMatchObject({ state: 'pending', attempt: 0, payload: { row: 1 } });
    clock.advance(60_000);
    await r.drain();
    clock.advance(60_000);
    await r.drain();
    expect(seen).toEqual([0, 1, 2]);
    expect((await jobs.get(id))?.state).toBe('done');
  });

  it('runs no more than its concurrency at once, and only the kinds it handles', async () => {
    let running = 0;
    let most = 0;
    const r = new JobRunner({
      db: test.db,
      clock,
      owner: 'me',
      concurrency: 3,
      handlers: {
        slow: async () => {
          most = Math.max(most, ++running);
          await sleep(20); // stand-in: a handler that takes a moment, so several overlap
          running--;
        },
      },
    });
    for (let i = 0; i < 10; i++) await jobs.enqueue({ kind: 'slow' });
    await jobs.enqueue({ kind: 'other' });
    expect(await r.drain()).toBe(10);
    expect(most).toBe(3);
    expect((await jobs.counts()).pending).toBe(1);
  });

  it('takes over a job whose lease ran out and tells the handler it may already have been done', async () => {
    const id = (await jobs.enqueue({ kind: 'send' })) as number;
    // A process claims it and dies without renewing: its lease runs out.
    const [claimed] = await jobs.claim('dead', ['send'], 1, { now: Date.now(), ms: 100 });
    expect(claimed).toMatchObject({ id, attempt: 1, reclaimed: false });
    const seen: { attempt: number; reclaimed: boolean }[] = [];
    const r = runner({
      send: async ({ job }) => void seen.push({ attempt: job.attempt, reclaimed: job.reclaimed }),
    });
    expect(await r.drain()).toBe(0);
    // Real time: leases run on the system clock by design (clock.ts), so this one runs out in it.
    await sleep(150);
    expect(await r.drain()).toBe(1);
    expect(seen).toEqual([{ attempt: 2, reclaimed: true }]);
    // The dead process's late outcome is not recorded over the new owner's.
    expect(await jobs.finish(id, 'dead', { state: 'failed', error: 'late' })).toBe(false);
    expect((await jobs.get(id))?.state).toBe('done');
  });

  it('renews the lease while a long handler runs, so nobody takes the job over meanwhile', async () => {
    await jobs.enqueue({ kind: 'long' });
    const release = Promise.withResolvers<void>();
    const first = runner({ long: () => release.promise }, { leaseMs: 150, owner: 'first' });
    const other = runner({ long: async () => {} }, { leaseMs: 150, owner: 'other' });
    const draining = first.drain();
    // Real time: longer than the lease, on the system clock leases keep by design (clock.ts).
    await sleep(400);
    expect(await other.drain()).toBe(0);
    release.resolve();
    expect(await draining).toBe(1);
  });

  it('aborts the handler when another process has taken the job over', async () => {
    const id = (await jobs.enqueue({ kind: 'send' })) as number;
    let aborted = false;
    const started = Promise.withResolvers<void>();
    const r = runner(
      {
        send: ({ signal }) =>
          new Promise((resolve) => {
            started.resolve();
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve(undefined);
            });
          }),
      },
      { leaseMs: 90 },
    );
    const draining = r.drain();
    await started.promise;
    // Another owner took it (as after a pause longer than the lease).
    await test.db.run("UPDATE jobs SET lease_owner = 'thief' WHERE id = $1", id);
    await draining;
    expect(aborted).toBe(true);
    expect((await jobs.get(id))?.state).toBe('running');
  });

  it('purges finished jobs older than a date', async () => {
    await jobs.enqueue({ kind: 'x' });
    await runner({ x: async () => {} }).drain();
    expect(await jobs.purge(NIGHT)).toBe(0);
    expect(await jobs.purge(NIGHT + 1)).toBe(1);
  });
});
