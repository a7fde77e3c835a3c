import { randomUUID } from 'node:crypto';
import { FakeClock } from '@review-desk/server/clock';
import { JobRunner } from '@review-desk/server/jobs/runner';
import { jobStore, schedulingMigrations } from '@review-desk/server/jobs/store';
import { describeEngines, useTestDatabase } from '@review-desk/server/test-support/databases';
import pino from 'pino';
import { expect, it } from 'vitest';
import { bulkRetention } from './retention.ts';
import { BULK_MIGRATIONS, createBulkStore } from './store.ts';

// Finished list sends are deleted, rows and all, once they finished longer ago than the retention
// (BULK_RETENTION_DAYS), by the leased retention job; lists in progress and recent ones stay.

const DAY = 86_400_000;
const UNLIMITED = { userLists: 1e9, locationLists: 1e9, userRows: 1e9, locationRows: 1e9 };

describeEngines('the retention of finished list sends', (dialect) => {
  const database = useTestDatabase(dialect, { migrations: [schedulingMigrations, BULK_MIGRATIONS] });

  it('deletes lists finished more than 90 days ago, with their rows, and keeps the others', async () => {
    const { db } = database();
    const clock = new FakeClock(Date.parse('2030-01-01T00:00:00Z'), { frozen: true });
    const store = createBulkStore(db, () => clock.now());
    const list = async (rows: number) =>
      store.create(
        {
          id: randomUUID(),
          location: 'loc',
          channel: 'email',
          skipRecent: false,
          dailyCap: null,
          timeZone: 'UTC',
          createdBy: 'u1',
          createdByEmail: 'u1@example.com',
          rows: Array.from({ length: rows }, (_, i) => ({
            send: { channel: 'email' as const, customerEmail: `r${i}@example.com` },
            contactMasked: `r${i}@…`,
          })),
        },
        UNLIMITED,
      );
    const old = [await list(1_200), await list(30)];
    for (const job of old) await store.cancel(job.id);
    const running = await list(10);
    clock.advance(60 * DAY);
    const recent = await list(5);
    await store.cancel(recent.id);

    const retention = bulkRetention({ db, clock, retentionMs: 90 * DAY, logger: pino({ level: 'silent' }) });
    const runner = new JobRunner({
      db,
      clock,
      owner: 'me',
      pollMs: 60_000,
      handlers: { [retention.kind]: retention.handler },
    });
    await retention.schedule();
    expect(await runner.drain()).toBe(1);
    expect(await store.get(old[0]!.id)).not.toBeNull();

    clock.advance(31 * DAY);
    expect(await runner.drain()).toBe(1);
    const left = await db.all<{ id: string }>('SELECT id FROM bulk_jobs ORDER BY created_at');
    expect(left.map((r) => r.id)).toEqual([running.id, recent.id]);
    const rows = await db.all<{ job_id: string; n: number }>(
      'SELECT job_id, count(*) AS n FROM bulk_rows GROUP BY job_id ORDER BY job_id',
    );
    expect(rows.map((r) => [r.job_id, Number(r.n)]).sort()).toEqual(
      [
        [running.id, 10],
        [recent.id, 5],
      ].sort(),
    );
    // It goes on: the next run is an hour later.
    expect((await jobStore(db, clock).byKey(retention.kind))?.state).toBe('pending');
  });
});
