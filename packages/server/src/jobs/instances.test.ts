import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEngines, type TestDatabase } from '../../test-support/databases.ts';
import { startInstanceLease } from './instances.ts';
import { schedulingMigrations } from './store.ts';

describeEngines('instance leases', (dialect) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(dialect, { migrations: [schedulingMigrations] });
  });
  afterAll(() => test.dispose());

  it('names only the instances whose lease ran out, never a live one or itself', async () => {
    const live = await startInstanceLease({ db: test.db, leaseMs: 150 });
    const watcher = await startInstanceLease({ db: test.db, leaseMs: 150 });
    // A process that registered and then stopped heartbeating (SIGKILL): its lease runs out.
    const now = Date.now();
    await test.db.run(
      `INSERT INTO instances (id, pid, host, started_at, heartbeat_at, lease_until) VALUES ('killed', 1, 'h', $1, $1, $2)`,
      now,
      now + 100,
    );
    expect(await watcher.expiredInstances()).toEqual([]);
    // Real time: leases run on the system clock by design (clock.ts).
    await sleep(400); // longer than every lease: only heartbeats keep one alive
    expect(await watcher.expiredInstances()).toEqual(['killed']);
    await watcher.forget(['killed']);
    expect(await watcher.expiredInstances()).toEqual([]);
    await live.stop();
    // A graceful stop ends the lease at once: its leftovers can be settled without waiting.
    expect(await watcher.expiredInstances()).toEqual([live.id]);
    await watcher.stop();
  });

  it('keeps an instance that came back to life between being found expired and forgotten', async () => {
    const watcher = await startInstanceLease({ db: test.db, leaseMs: 1_000 });
    const back = await startInstanceLease({ db: test.db, leaseMs: 1_000 });
    await test.db.run('UPDATE instances SET lease_until = 0 WHERE id = $1', back.id);
    const expired = await watcher.expiredInstances();
    expect(expired).toContain(back.id);
    await test.db.run('UPDATE instances SET lease_until = $1 WHERE id = $2', Date.now() + 1_000, back.id);
    await watcher.forget(expired);
    expect(await test.db.get('SELECT id FROM instances WHERE id = $1', back.id)).toEqual({ id: back.id });
    await back.stop();
    await watcher.stop();
  });

  it('names at once an instance of this host whose process is gone, though its lease still runs', async () => {
    const watcher = await startInstanceLease({ db: test.db, leaseMs: 60_000 });
    const exited = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const now = Date.now();
    const insert = `INSERT INTO instances (id, pid, host, started_at, heartbeat_at, lease_until) VALUES ($1, $2, $3, $4, $4, $5)`;
    await test.db.run(insert, 'killed-here', exited, hostname(), now, now + 60_000);
    // Same pid on another machine, and a live process here: both alive until their leases run out.
    await test.db.run(insert, 'elsewhere', exited, 'another-host', now, now + 60_000);
    await test.db.run(insert, 'alive-here', process.pid, hostname(), now, now + 60_000);
    // (Earlier tests' stopped instances are listed too: only these three rows matter here.)
    const mine = ['killed-here', 'elsewhere', 'alive-here'];
    const named = async () => (await watcher.expiredInstances()).filter((id) => mine.includes(id));
    expect(await named()).toEqual(['killed-here']);
    await watcher.forget(['killed-here']);
    expect(await named()).toEqual([]);
    await test.db.run(`DELETE FROM instances WHERE id IN ('elsewhere', 'alive-here')`);
    await watcher.stop();
  });

  it('registers again when another process took it for stopped', async () => {
    const lease = await startInstanceLease({ db: test.db, leaseMs: 90 });
    await test.db.run('DELETE FROM instances WHERE id = $1', lease.id);
    await expect
      .poll(() => test.db.get('SELECT id FROM instances WHERE id = $1', lease.id), { timeout: 2_000 })
      .toEqual({ id: lease.id });
    await lease.stop();
  });
});
