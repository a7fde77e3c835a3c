import { randomUUID } from 'node:crypto';
import { systemClock } from '@review-desk/server/clock';
import { migrate } from '@review-desk/server/db/migrate';
import type { Database } from '@review-desk/server/db/types';
import { jobRetention } from '@review-desk/server/jobs/retention';
import { createJobRunner, type JobRunner } from '@review-desk/server/jobs/runner';
import { jobStore, schedulingMigrations } from '@review-desk/server/jobs/store';
import type { Logger } from 'pino';
import type { Config } from '../env.ts';
import type { BulkLimits } from '../env-bulk.ts';
import { bulkRetention } from './retention.ts';
import {
  BULK_MIGRATIONS,
  type BulkJobRecord,
  type BulkStore,
  createBulkStore,
  type NewBulkJob,
} from './store.ts';
import { BULK_JOB_KIND, type BulkWorkerDeps, bulkWorker } from './worker.ts';

// List sends in a running BFF: their tables live in the BFF's database (component `bulk`, with
// the shared jobs table of component `scheduling`), migrated on first use. Every process runs a
// job runner; the lease on each job keeps a list send to one worker at a time.

export type BulkModule = {
  /** The wall clock a new list's days are counted on (its daily cap). */
  timeZone: string;
  /** What lists may hold, per user and per location (limits.ts). */
  limits: BulkLimits;
  store(): Promise<BulkStore>;
  /** Stores the job and its first run in one transaction, and wakes this process's runner. */
  create(job: NewBulkJob): Promise<BulkJobRecord>;
  /** paused → running with a new run; false when the job was not paused. */
  resume(id: string): Promise<boolean>;
  retryUnknown(id: string): Promise<number>;
  start(): Promise<void>;
  /** Runs the due runs until none is left (dev hooks, tests); how many ran. */
  drain(): Promise<number>;
  stop(): Promise<void>;
};

type Opened = { db: Database; store: BulkStore };

const runKey = (id: string, run: number) => `${BULK_JOB_KIND}:${id}:${run}`;
/** A job is taken over after a crash this many times before it is given up (each run resets it). */
const MAX_ATTEMPTS = 20;

export function openBulk(
  db: Database,
  config: Pick<Config, 'bulk' | 'upstreamTimeoutMs'>,
  worker: Omit<BulkWorkerDeps, 'store' | 'owner' | 'stopping' | 'ratePerMinute' | 'downBoundMs'>,
  logger: Logger,
): BulkModule {
  let opened: Promise<Opened> | null = null;
  let runner: JobRunner | null = null;
  const owner = `bff-${process.pid}-${randomUUID()}`;
  const stopping = new AbortController();
  // The scheduling clock: row and job times, the runs' due times and every wait of a list send.
  const clock = worker.clock ?? systemClock;

  const open = async (): Promise<Opened> => {
    await migrate(db, [schedulingMigrations, BULK_MIGRATIONS]);
    return { db, store: createBulkStore(db, () => clock.now()) };
  };
  const get = () => {
    opened ??= open();
    return opened;
  };
  const enqueue = async (db: Database, id: string, run: number) => {
    await jobStore(db, clock).enqueue({
      kind: BULK_JOB_KIND,
      payload: { id, run },
      uniqueKey: runKey(id, run),
      maxAttempts: MAX_ATTEMPTS,
    });
  };

  return {
    timeZone: config.bulk.timeZone,
    limits: config.bulk.limits,

    async store() {
      return (await get()).store;
    },

    async create(job) {
      const { db, store } = await get();
      const created = await db.transaction(async () => {
        const record = await store.create(job, config.bulk.limits);
        await enqueue(db, record.id, record.runs);
        return record;
      });
      runner?.wake();
      return created;
    },

    async resume(id) {
      const { db, store } = await get();
      const resumed = await db.transaction(async () => {
        const run = await store.resume(id);
        if (run !== null) await enqueue(db, id, run);
        return run !== null;
      });
      if (resumed) runner?.wake();
      return resumed;
    },

    async retryUnknown(id) {
      const { db, store } = await get();
      const reopened = await db.transaction(async () => {
        const result = await store.retryUnknown(id);
        if (result.run !== null) await enqueue(db, id, result.run);
        return result.reopened;
      });
      if (reopened > 0) runner?.wake();
      return reopened;
    },

    async start() {
      const { db, store } = await get();
      // A running job always has its run in the jobs table (the same transaction made both);
      // making sure costs nothing, as the run's key is unique.
      for (const id of await store.runningIds()) {
        const job = await store.get(id);
        if (job) await enqueue(db, id, job.runs);
      }
      // Finished jobs of every kind (list sends' runs, alerts' digests) are deleted after a while,
      // by a job of their own that this runner runs.
      const retention = jobRetention({ db, clock, logger });
      await retention.schedule();
      // Finished list sends and their rows, after BULK_RETENTION_DAYS.
      const lists = bulkRetention({ db, clock, retentionMs: config.bulk.retentionMs, logger });
      await lists.schedule();
      runner = createJobRunner({
        db,
        owner,
        clock,
        leaseMs: config.bulk.leaseMs,
        pollMs: config.bulk.pollMs,
        handlers: {
          [retention.kind]: retention.handler,
          [lists.kind]: lists.handler,
          [BULK_JOB_KIND]: bulkWorker({
            ...worker,
            clock,
            store,
            owner,
            stopping: stopping.signal,
            ratePerMinute: config.bulk.ratePerMinute,
            downBoundMs: config.bulk.downBoundMs,
          }),
        },
        logger,
      });
      runner.start();
    },

    drain: async () => (runner ? runner.drain() : 0),

    async stop() {
      stopping.abort();
      // A send in flight finishes and is recorded; then the run ends and its job waits for the
      // next process (pending, due now).
      await runner?.stop({ timeoutMs: config.upstreamTimeoutMs + 2_000 });
    },
  };
}
