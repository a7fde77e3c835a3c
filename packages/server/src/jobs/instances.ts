import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Database, type DbLogger, silentLogger } from '../db/types.ts';

// Which processes are alive. Each process registers an instance id and renews its lease with a
// heartbeat; work it records as in flight carries that id. When an instance's lease has run out,
// it stopped (or hung past the lease), and the others may settle its in-flight work: the BFF turns
// exactly those sends into `unknown`, never another live replica's. Leases use the system clock.
// An instance on this same host whose process is gone (a SIGKILL, then a restart) is known to be
// stopped at once: its work is settled without waiting for the lease to run out.

export type InstanceLease = {
  readonly id: string;
  /**
   * Instances other than this one whose lease has run out (ids, oldest first), then those on this
   * host whose process is no longer running.
   */
  expiredInstances(): Promise<string[]>;
  /**
   * Removes instances whose in-flight work has been settled; one that came back to life
   * meanwhile (it renewed its lease) is kept.
   */
  forget(ids: readonly string[]): Promise<void>;
  /** Stops the heartbeat and ends the lease at once, so leftovers are settled without waiting. */
  stop(): Promise<void>;
};

export type InstanceLeaseOptions = {
  db: Database;
  /** How long the lease lasts without a heartbeat (default 15 s); renewed every third of it. */
  leaseMs?: number;
  id?: string;
  logger?: DbLogger;
};

export async function startInstanceLease(options: InstanceLeaseOptions): Promise<InstanceLease> {
  const { db } = options;
  const leaseMs = options.leaseMs ?? 15_000;
  const id = options.id ?? randomUUID();
  const logger = options.logger ?? silentLogger;
  const insert = db.prepare(`INSERT INTO instances (id, pid, host, started_at, heartbeat_at, lease_until)
    VALUES ($1, $2, $3, $4, $4, $5)
    ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, lease_until = excluded.lease_until`);
  const beat = db.prepare('UPDATE instances SET heartbeat_at = $2, lease_until = $3 WHERE id = $1');
  const expired = db.prepare(
    'SELECT id FROM instances WHERE lease_until < $1 AND id <> $2 ORDER BY lease_until',
  );
  const localLive = db.prepare(
    'SELECT id, pid FROM instances WHERE host = $1 AND lease_until >= $2 AND id <> $3 ORDER BY started_at',
  );
  const forget = db.prepare(
    'DELETE FROM instances WHERE id = $1 AND (lease_until < $2 OR (host = $3 AND pid = $4))',
  );
  const end = db.prepare('UPDATE instances SET lease_until = 0 WHERE id = $1');

  const register = (now: number) => insert.run(id, process.pid, hostname(), now, now + leaseMs);
  await register(Date.now());

  let beating: Promise<unknown> | undefined;
  const heartbeat = async () => {
    const now = Date.now();
    if ((await beat.run(id, now, now + leaseMs)).changes > 0) return;
    // Another process found this lease run out (this one was stopped or starved for longer than
    // the lease) and settled its in-flight work: say so, and register again.
    logger.warn(
      { instance: id },
      'This process was taken for stopped (its lease ran out); registering again',
    );
    await register(now);
  };
  const timer = setInterval(() => {
    beating ??= heartbeat()
      .catch((error) => logger.warn({ err: error, instance: id }, 'The instance heartbeat failed'))
      .finally(() => {
        beating = undefined;
      });
  }, leaseMs / 3);
  timer.unref();

  return {
    id,
    async expiredInstances() {
      const now = Date.now();
      const ran = (await expired.all<{ id: string }>(now, id)).map((row) => row.id);
      const gone = (await localLive.all<{ id: string; pid: number }>(hostname(), now, id))
        .filter((row) => !processRunning(Number(row.pid)))
        .map((row) => row.id);
      return [...ran, ...gone];
    },
    async forget(ids) {
      const now = Date.now();
      const host = hostname();
      for (const other of ids) {
        // A local instance whose process is gone is forgotten by its pid; its lease may still run.
        const row = await db.get<{ pid: number }>('SELECT pid FROM instances WHERE id = $1', other);
        const deadPid = row && !processRunning(Number(row.pid)) ? Number(row.pid) : -1;
        await forget.run(other, now, host, deadPid);
      }
    },
    async stop() {
      clearInterval(timer);
      await beating;
      await end.run(id);
    },
  };
}

/** Whether a process with this pid runs on this machine (signal 0 checks without sending). */
export function processRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
