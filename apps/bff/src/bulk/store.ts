import { insertMany } from '@review-desk/server/db/insert-many';
import { migrationsBeside } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
import type { BulkJobStatus, ListChannel, SendRequest } from '@review-desk/shared';
import type { BulkLimits } from '../env-bulk.ts';
import { slices } from './check.ts';
import { withinLimits } from './limits.ts';
import { createBulkRows } from './rows.ts';

export type { OpenRow, RowResult } from './rows.ts';

// List sends (component `bulk`, own migrations): the jobs and their transitions; their rows'
// claims and outcomes are in rows.ts. Whether a row went out at all is decided by the send
// journal, which every row passes through (worker.ts).

export const BULK_MIGRATIONS = migrationsBeside(import.meta.url, 'bulk');

/**
 * Rows per INSERT when a list is stored. SQLite binds the shared `$n` placeholders as numbered
 * `?n` ones, and a statement with thousands of them runs slower per row the more it has: 10,000
 * rows took 2.8 s at 1,000 a statement and 0.05 s at 25 (bench/bulk.ts, "stored in"). PostgreSQL
 * pays a round trip per statement instead, so it takes them a thousand at a time.
 */
const ROWS_PER_INSERT = { sqlite: 25, postgres: 1_000 } as const;
/** Rows stored between two looks at the time taken (check.ts, slices). */
const ROWS_PER_SLICE = 500;

export type BulkJobRecord = {
  id: string;
  location: string;
  channel: ListChannel;
  skipRecent: boolean;
  /** At most this many rows a day (null: no cap), days counted on `timeZone`'s wall clock. */
  dailyCap: number | null;
  timeZone: string;
  status: BulkJobStatus;
  reason: string | null;
  runs: number;
  createdBy: string;
  createdByEmail: string;
  total: number;
  createdAt: number;
  finishedAt: number | null;
};

type JobRow = {
  id: string;
  location: string;
  channel: ListChannel;
  skip_recent: number;
  daily_cap: number | null;
  time_zone: string;
  status: BulkJobStatus;
  reason: string | null;
  runs: number;
  created_by: string;
  created_by_email: string;
  total: number;
  created_at: number;
  finished_at: number | null;
};

const JOB_COLUMNS =
  'id, location, channel, skip_recent, daily_cap, time_zone, status, reason, runs, created_by, created_by_email, total, created_at, finished_at';
function toJob(row: JobRow): BulkJobRecord {
  return {
    id: row.id,
    location: row.location,
    channel: row.channel,
    skipRecent: Number(row.skip_recent) === 1,
    dailyCap: row.daily_cap === null ? null : Number(row.daily_cap),
    timeZone: row.time_zone,
    status: row.status,
    reason: row.reason,
    runs: Number(row.runs),
    createdBy: row.created_by,
    createdByEmail: row.created_by_email,
    total: Number(row.total),
    createdAt: Number(row.created_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** A list to store: what the job records from the start, and its rows. */
export type NewBulkJob = Pick<
  BulkJobRecord,
  'id' | 'location' | 'channel' | 'skipRecent' | 'dailyCap' | 'timeZone' | 'createdBy' | 'createdByEmail'
> & { rows: { send: SendRequest; contactMasked: string }[] };

export type BulkStore = ReturnType<typeof createBulkStore>;

export function createBulkStore(db: Database, now: () => number = Date.now) {
  const one = db.prepare(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1`);

  return {
    ...createBulkRows(db, now),
    /** The scheduling clock the store dates rows with. */
    now,

    /**
     * Stores the job and its rows in one transaction, within the limits (limits.ts); the job is
     * `running` at once. The rows go in a slice at a time, giving way to other requests between.
     */
    async create(job: NewBulkJob, limits: BulkLimits): Promise<BulkJobRecord> {
      const at = now();
      return db.transaction(async (tx) => {
        await withinLimits(
          tx,
          { user: job.createdBy, location: job.location, rows: job.rows.length },
          limits,
        );
        await tx.run(
          `INSERT INTO bulk_jobs (id, location, channel, skip_recent, daily_cap, time_zone, status, runs,
             created_by, created_by_email, total, created_at) VALUES ($1, $2, $3, $4, $9, $10, 'running', 1, $5, $6, $7, $8)`,
          job.id,
          job.location,
          job.channel,
          job.skipRecent ? 1 : 0,
          job.createdBy,
          job.createdByEmail,
          job.rows.length,
          at,
          job.dailyCap,
          job.timeZone,
        );
        const slicer = slices();
        for (let first = 0; first < job.rows.length; first += ROWS_PER_SLICE) {
          await insertMany(
            tx,
            'bulk_rows',
            [
              'job_id',
              'idx',
              'customer_name',
              'customer_phone',
              'customer_email',
              'contact_masked',
              'outcome',
              'generation',
            ],
            job.rows
              .slice(first, first + ROWS_PER_SLICE)
              .map((row, offset) => [
                job.id,
                first + offset,
                row.send.customerName ?? null,
                row.send.customerPhone ?? null,
                row.send.customerEmail ?? null,
                row.contactMasked,
                'pending',
                0,
              ]),
            { batchRows: ROWS_PER_INSERT[db.dialect] },
          );
          await slicer.pause();
        }
        return toJob(
          (await tx.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1`, job.id)) as JobRow,
        );
      });
    },

    async get(id: string): Promise<BulkJobRecord | null> {
      const row = await one.get<JobRow>(id);
      return row ? toJob(row) : null;
    },

    /** A user's lists in progress (running or paused), in every location. */
    async inProgressOf(userId: string): Promise<number> {
      const row = await db.get<{ n: number }>(
        `SELECT count(*) AS n FROM bulk_jobs WHERE created_by = $1 AND status IN ('running', 'paused')`,
        userId,
      );
      return Number(row?.n ?? 0);
    },

    async runningIds(): Promise<string[]> {
      return (await db.all<{ id: string }>(`SELECT id FROM bulk_jobs WHERE status = 'running'`)).map(
        (r) => r.id,
      );
    },

    /** A location's jobs, newest first. */
    async list(location: string, limit = 50): Promise<BulkJobRecord[]> {
      const rows = await db.all<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE location = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        location,
        limit,
      );
      return rows.map(toJob);
    },

    /** running → done once no row is open. */
    async complete(id: string): Promise<boolean> {
      const { changes } = await db.run(
        `UPDATE bulk_jobs SET status = 'done', reason = NULL, finished_at = $2 WHERE id = $1 AND status = 'running'
           AND NOT EXISTS (SELECT 1 FROM bulk_rows WHERE job_id = $1 AND outcome IN ('pending', 'sending'))`,
        id,
        now(),
      );
      return changes > 0;
    },

    /** running → paused, by a user (reason null) or by the worker with the reason in words. */
    async pause(id: string, reason: string | null): Promise<boolean> {
      const { changes } = await db.run(
        `UPDATE bulk_jobs SET status = 'paused', reason = $2 WHERE id = $1 AND status = 'running'`,
        id,
        reason,
      );
      return changes > 0;
    },

    /** paused → running; the new run's number (its runner job's key), or null when not paused. */
    async resume(id: string): Promise<number | null> {
      const row = await db.get<{ runs: number }>(
        `UPDATE bulk_jobs SET status = 'running', reason = NULL, runs = runs + 1 WHERE id = $1 AND status = 'paused'
         RETURNING runs`,
        id,
      );
      return row ? Number(row.runs) : null;
    },

    /** running or paused → cancelled; rows not yet claimed are skipped (one in flight finishes). */
    async cancel(id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const { changes } = await tx.run(
          `UPDATE bulk_jobs SET status = 'cancelled', finished_at = $2 WHERE id = $1 AND status IN ('running', 'paused')`,
          id,
          now(),
        );
        if (changes === 0) return false;
        await tx.run(
          `UPDATE bulk_rows SET outcome = 'skipped', code = 'cancelled', detail = $2, finished_at = $3
           WHERE job_id = $1 AND outcome = 'pending'`,
          id,
          'The list send was cancelled before this row was sent.',
          now(),
        );
        return true;
      });
    },

    /**
     * The user's explicit second attempt at the unknown rows: each gets a new generation (a new
     * idempotency key) and is pending again; a finished job runs again. Returns the rows reopened
     * and the new run's number when the job was set running.
     */
    async retryUnknown(id: string): Promise<{ reopened: number; run: number | null }> {
      return db.transaction(async (tx) => {
        const job = await tx.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1`, id);
        if (!job || job.status === 'cancelled') return { reopened: 0, run: null };
        const { changes } = await tx.run(
          `UPDATE bulk_rows SET outcome = 'pending', generation = generation + 1, code = NULL, detail = NULL,
             finished_at = NULL WHERE job_id = $1 AND outcome = 'unknown'`,
          id,
        );
        if (changes === 0 || job.status !== 'done') return { reopened: changes, run: null };
        const row = await tx.get<{ runs: number }>(
          `UPDATE bulk_jobs SET status = 'running', reason = NULL, finished_at = NULL, runs = runs + 1
           WHERE id = $1 RETURNING runs`,
          id,
        );
        return { reopened: changes, run: Number(row?.runs) };
      });
    },
  };
}
