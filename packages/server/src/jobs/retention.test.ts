import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestDatabase, describeEngines, type TestDatabase } from '../../test-support/databases.ts';
import { FakeClock } from '../clock.ts';
import { FINISHED_JOB_RETENTION_MS, jobRetention, RETENTION_JOB } from './retention.ts';
import { JobRunner } from './runner.ts';
import { jobStore, schedulingMigrations } from './store.ts';

// Finished jobs do not pile up: the retention job deletes those finished longer ago than the
// retention, in steps, and keeps every job not finished — and itself.

const START = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3_600_000;
const logger = { info() {}, warn() {} };

describeEngines('the retention of finished jobs', (dialect) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(dialect, { migrations: [schedulingMigrations] });
  });
  afterAll(() => test.dispose());
  beforeEach(async () => {
    await test.db.run('DELETE FROM jobs');
  });

  it('deletes jobs finished longer ago than the retention, every hour, and keeps the rest', async () => {
    const clock = new FakeClock(START, { frozen: true });
    const jobs = jobStore(test.db, clock);
    const retention = jobRetention({ db: test.db, clock, logger });
    const runner = new JobRunner({
      db: test.db,
      clock,
      owner: 'me',
      pollMs: 60_000,
      handlers: { reminder: async () => {}, [retention.kind]: retention.handler },
    });
    // 12,000 reminders that ran (one per request), more than one statement deletes.
    await test.db.run(
      `INSERT INTO jobs (kind, unique_key, payload, state, run_at, max_attempts, created_at, finished_at)
       SELECT 'reminder', 'reminder:' || n, 'null', 'done', $1, 3, $1, $1 FROM (${series(12_000)}) AS s`,
      START,
    );
    await jobs.enqueue({ kind: 'reminder', uniqueKey: 'later', runAt: START + 30 * 86_400_000 });
    await retention.schedule();
    await retention.schedule();
    expect(await runner.drain()).toBe(1);
    expect((await jobs.counts()).done).toBe(12_000);

    clock.set(START + FINISHED_JOB_RETENTION_MS + HOUR);
    expect(await runner.drain()).toBe(1);
    const left = await test.db.all<{ kind: string; state: string }>(
      'SELECT kind, state FROM jobs ORDER BY kind',
    );
    expect(left).toEqual([
      { kind: RETENTION_JOB, state: 'pending' },
      { kind: 'reminder', state: 'pending' },
    ]);
    // It runs again an hour later, and only then.
    const next = await jobs.byKey(RETENTION_JOB);
    expect(next?.runAt).toBe(clock.now() + HOUR);
  });
});

/** A row source of 1…n, on either engine. */
function series(n: number): string {
  return `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${n}) SELECT n FROM c`;
}
