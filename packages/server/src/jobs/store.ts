import { type Clock, systemClock } from '../clock.ts';
import { migrationsBeside } from '../db/migrate.ts';
import type { Database, Statement } from '../db/types.ts';

// The jobs table: scheduled work written once for both services (quiet-hours sends, reminders,
// bulk sends, alert polls, digests). A job is claimed by one process at a time under a lease; a
// lease that runs out (the process died or hung) lets another process take the job over, and the
// handler is told so (`reclaimed`), because the first attempt may have done the work already.
// Run times use the service's clock (a fake clock moves them); leases use the system clock.

/** The jobs and instances tables, to list before the service's own in `migrate()`. */
export const schedulingMigrations = migrationsBeside(import.meta.url, 'scheduling');

export type JobState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

export type NewJob = {
  kind: string;
  /** Anything JSON can hold; the handler receives it parsed. */
  payload?: unknown;
  /** When to run (ms, the service's clock); default now. */
  runAt?: number;
  /** At most one job ever exists with this key (e.g. `reminder:<requestId>`). */
  uniqueKey?: string;
  /** Claims before the job is given up as failed (default 3). */
  maxAttempts?: number;
};

export type ClaimedJob = {
  id: number;
  kind: string;
  uniqueKey: string | null;
  payload: unknown;
  runAt: number;
  /** 1 for the first claim; counts every claim since the job was created or last continued. */
  attempt: number;
  maxAttempts: number;
  /**
   * This claim took the job over from a process that started it and then lost its lease (it
   * died, hung or was cut off) before recording an outcome. Whatever the job does outside the
   * database may already have happened: record it as unknown rather than do it again.
   */
  reclaimed: boolean;
};

export type JobRecord = ClaimedJob & {
  state: JobState;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
};

/** How a claimed job ends (the runner records it; only the lease holder can). */
export type JobOutcome =
  | { state: 'done' }
  | { state: 'failed'; error: string }
  /** Run again at runAt after a failure; the attempt still counts. */
  | { state: 'retry'; runAt: number; error: string }
  /** Continue at runAt (paced work, the next batch); attempts start again from 0. */
  | { state: 'continue'; runAt: number; payload?: unknown };

type Row = {
  id: number;
  kind: string;
  unique_key: string | null;
  payload: string;
  run_at: number;
  attempts: number;
  max_attempts: number;
  reclaimed: number;
  state: JobState;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
};

const COLUMNS = 'id, kind, unique_key, payload, run_at, attempts, max_attempts, reclaimed';

function toClaimed(row: Row): ClaimedJob {
  return {
    id: Number(row.id),
    kind: row.kind,
    uniqueKey: row.unique_key,
    payload: JSON.parse(row.payload),
    runAt: Number(row.run_at),
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    reclaimed: row.reclaimed === 1,
  };
}

function toRecord(row: Row): JobRecord {
  return {
    ...toClaimed(row),
    state: row.state,
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

export function jobStore(db: Database, clock: Clock = systemClock) {
  const insert =
    db.prepare(`INSERT INTO jobs (kind, unique_key, payload, state, run_at, max_attempts, created_at)
    VALUES ($1, $2, $3, 'pending', $4, $5, $6) ON CONFLICT (unique_key) DO NOTHING RETURNING id`);
  const cancel = db.prepare(`UPDATE jobs SET state = 'cancelled', finished_at = $2
    WHERE unique_key = $1 AND state = 'pending'`);
  const byId = db.prepare(
    `SELECT ${COLUMNS}, state, last_error, created_at, finished_at FROM jobs WHERE id = $1`,
  );
  const byKey = db.prepare(
    `SELECT ${COLUMNS}, state, last_error, created_at, finished_at FROM jobs WHERE unique_key = $1`,
  );
  const renew = db.prepare(
    `UPDATE jobs SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 AND state = 'running'`,
  );
  const release =
    ", lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2 AND state = 'running'";
  const finish = {
    done: db.prepare(`UPDATE jobs SET state = 'done', finished_at = $3, last_error = $4${release}`),
    failed: db.prepare(`UPDATE jobs SET state = 'failed', finished_at = $3, last_error = $4${release}`),
    retry: db.prepare(`UPDATE jobs SET state = 'pending', run_at = $3, last_error = $4${release}`),
    continue: db.prepare(`UPDATE jobs SET state = 'pending', run_at = $3, attempts = 0,
      payload = coalesce($4, payload)${release}`),
  };
  // At most $2 rows a statement, oldest first (the jobs_finished index): a large backlog is
  // deleted in steps, never in one long statement holding the table.
  const purge = db.prepare(
    `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE state IN ('done', 'failed', 'cancelled')
       AND finished_at < $1 ORDER BY finished_at LIMIT $2)`,
  );
  const counts = db.prepare('SELECT state, count(*) AS n FROM jobs GROUP BY state');
  const claims = new Map<string, Statement>();

  /**
   * One statement claims up to `limit` due jobs of these kinds, and jobs of these kinds whose
   * lease ran out. PostgreSQL skips rows another process is claiming (SKIP LOCKED); SQLite runs it
   * under the write lock of BEGIN IMMEDIATE.
   */
  function claimStatement(kinds: readonly string[]): Statement {
    const key = kinds.join('\u0000');
    let statement = claims.get(key);
    if (!statement) {
      const list = kinds.map((_, i) => `$${i + 6}`).join(', ');
      statement = db.prepare(`UPDATE jobs SET state = 'running', lease_owner = $1, lease_until = $2,
          started_at = $4, attempts = attempts + 1, reclaimed = CASE WHEN state = 'running' THEN 1 ELSE 0 END
        WHERE id IN (SELECT id FROM jobs
          WHERE ((state = 'pending' AND run_at <= $4) OR (state = 'running' AND lease_until < $3))
            AND kind IN (${list})
          ORDER BY run_at, id LIMIT $5${db.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''})
        RETURNING ${COLUMNS}`);
      claims.set(key, statement);
    }
    return statement;
  }

  return {
    /** Creates the job; null when a job with its uniqueKey already exists (whatever its state). */
    async enqueue(job: NewJob): Promise<number | null> {
      const row = await insert.get<{ id: number }>(
        job.kind,
        job.uniqueKey ?? null,
        JSON.stringify(job.payload ?? null),
        job.runAt ?? clock.now(),
        job.maxAttempts ?? 3,
        clock.now(),
      );
      return row ? Number(row.id) : null;
    },

    /** Cancels the job with this key if it has not started; returns whether it did. */
    async cancel(uniqueKey: string): Promise<boolean> {
      return (await cancel.run(uniqueKey, clock.now())).changes > 0;
    },

    async get(id: number): Promise<JobRecord | undefined> {
      const row = await byId.get<Row>(id);
      return row && toRecord(row);
    },

    async byKey(uniqueKey: string): Promise<JobRecord | undefined> {
      const row = await byKey.get<Row>(uniqueKey);
      return row && toRecord(row);
    },

    /** Claims due and abandoned jobs for `owner`, oldest first; `leaseNow` is system time. */
    async claim(
      owner: string,
      kinds: readonly string[],
      limit: number,
      lease: { now: number; ms: number },
    ): Promise<ClaimedJob[]> {
      if (kinds.length === 0 || limit <= 0) return [];
      const statement = claimStatement(kinds);
      const args = [owner, lease.now + lease.ms, lease.now, clock.now(), limit, ...kinds];
      const rows =
        db.dialect === 'sqlite'
          ? await db.transaction(() => statement.all<Row>(...args))
          : await statement.all<Row>(...args);
      return rows.map(toClaimed).sort((a, b) => a.runAt - b.runAt || a.id - b.id);
    },

    /** Extends the lease; false when this owner no longer holds it (another process took over). */
    async renew(id: number, owner: string, leaseUntil: number): Promise<boolean> {
      return (await renew.run(id, owner, leaseUntil)).changes > 0;
    },

    /** Records the outcome; false when the lease was lost first (then the outcome is not written). */
    async finish(id: number, owner: string, outcome: JobOutcome): Promise<boolean> {
      const now = clock.now();
      let result: { changes: number };
      if (outcome.state === 'done') result = await finish.done.run(id, owner, now, null);
      else if (outcome.state === 'failed')
        result = await finish.failed.run(id, owner, now, outcome.error.slice(0, 2000));
      else if (outcome.state === 'retry') {
        result = await finish.retry.run(id, owner, outcome.runAt, outcome.error.slice(0, 2000));
      } else {
        const payload = outcome.payload === undefined ? null : JSON.stringify(outcome.payload);
        result = await finish.continue.run(id, owner, outcome.runAt, payload);
      }
      return result.changes > 0;
    },

    /**
     * Deletes finished jobs older than `before`, at most `limit` (their unique keys can then be
     * used again); returns how many. retention.ts calls it on a schedule.
     */
    async purge(before: number, limit = 1_000_000): Promise<number> {
      return (await purge.run(before, limit)).changes;
    },

    async counts(): Promise<Record<JobState, number>> {
      const result: Record<JobState, number> = { pending: 0, running: 0, done: 0, failed: 0, cancelled: 0 };
      for (const row of await counts.all<{ state: JobState; n: number }>()) result[row.state] = Number(row.n);
      return result;
    },
  };
}
export type JobStore = ReturnType<typeof jobStore>;
